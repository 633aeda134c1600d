package catalog

import "slices"

// Role is a user's role in a library. Owner is implicit in the spec (the
// creator); viewer and collaborator are the spec's LibraryMemberRole values.
type Role string

// Library roles, weakest first.
const (
	RoleViewer       Role = "viewer"
	RoleCollaborator Role = "collaborator"
	RoleOwner        Role = "owner"
)

// Valid reports whether r is one of the known roles.
func (r Role) Valid() bool {
	return r == RoleViewer || r == RoleCollaborator || r == RoleOwner
}

// CanWrite reports whether the role may upload, edit and organize content.
func (r Role) CanWrite() bool { return r == RoleCollaborator || r == RoleOwner }

// IsOwner reports whether the role administers the library.
func (r Role) IsOwner() bool { return r == RoleOwner }

// Action names an operation class that an API key or OAuth token may be
// granted (decisions.md "Authentication").
type Action string

// Actions. ActionAll grants every action.
const (
	ActionAll         Action = "all"
	ActionAssetRead   Action = "asset.read"
	ActionAssetUpload Action = "asset.upload"
	ActionAssetUpdate Action = "asset.update"
	ActionAssetTrash  Action = "asset.trash"
	ActionAssetDelete Action = "asset.delete"
	ActionAlbumRead   Action = "album.read"
	ActionAlbumWrite  Action = "album.write"
	ActionPersonRead  Action = "person.read"
	ActionPersonWrite Action = "person.write"
	ActionStackRead   Action = "stack.read"
	ActionStackWrite  Action = "stack.write"
	ActionSearch      Action = "search"
	ActionLibraryRead Action = "library.read"
	ActionEventRead   Action = "event.read"
	ActionTaskRead    Action = "task.read"
	ActionUserRead    Action = "user.read"
	ActionUserUpdate  Action = "user.update"
)

// AllActions lists every grantable action, ActionAll first.
var AllActions = []Action{
	ActionAll, ActionAssetRead, ActionAssetUpload, ActionAssetUpdate, ActionAssetTrash,
	ActionAssetDelete, ActionAlbumRead, ActionAlbumWrite, ActionPersonRead, ActionPersonWrite,
	ActionStackRead, ActionStackWrite, ActionSearch, ActionLibraryRead, ActionEventRead,
	ActionTaskRead, ActionUserRead, ActionUserUpdate,
}

// Valid reports whether a is a known action.
func (a Action) Valid() bool { return slices.Contains(AllActions, a) }

// CredentialKind is how a request authenticated.
type CredentialKind string

// Credential kinds (spec "Authentication").
const (
	CredSession CredentialKind = "session"
	CredAPIKey  CredentialKind = "api_key"
	CredOAuth   CredentialKind = "oauth"
)

// Scope bounds what a delegated credential (API key, OAuth token) may do.
// LibraryIDs nil means every library the user can reach.
type Scope struct {
	Actions    []Action
	LibraryIDs []string
}

// Allows reports whether the scope grants action a.
func (s Scope) Allows(a Action) bool {
	return slices.Contains(s.Actions, ActionAll) || slices.Contains(s.Actions, a)
}

// CoversLibrary reports whether the scope reaches library id.
func (s Scope) CoversLibrary(id string) bool {
	return s.LibraryIDs == nil || slices.Contains(s.LibraryIDs, id)
}

// Principal is the authenticated caller of one request.
type Principal struct {
	User *User
	Kind CredentialKind
	// Scope is nil for a first-party session, which may do everything the
	// user's roles allow.
	Scope *Scope
	// CredentialID is the session id, API key id or OAuth grant id.
	CredentialID string
}

// Allows reports whether the credential grants action a.
func (p *Principal) Allows(a Action) bool { return p.Scope == nil || p.Scope.Allows(a) }

// CoversLibrary reports whether the credential may reach library id.
func (p *Principal) CoversLibrary(id string) bool {
	return p.Scope == nil || p.Scope.CoversLibrary(id)
}
