package httpapi

import (
	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/catalog"
)

// Conversions from domain types to wire types, each in one place.

func toAPIUser(u *catalog.User) api.User {
	return api.User{ID: u.ID, IsActive: u.IsActive, IsSuperuser: u.IsSuperuser, IsVerified: u.IsVerified,
		CreatedAt: u.CreatedAt, UpdatedAt: u.UpdatedAt, Email: u.Email, FirstName: u.FirstName, LastName: u.LastName}
}

func toAPILibrary(m *catalog.Membership) api.Library {
	l := m.Library
	return api.Library{ID: l.ID, Name: l.Name, OwnerID: l.OwnerID, Role: string(m.Role), TrashedAt: l.TrashedAt,
		CreatedAt: l.CreatedAt, UpdatedAt: l.UpdatedAt}
}

func toAPIKey(k *catalog.APIKey) api.APIKey {
	actions := make([]string, len(k.Scope.Actions))
	for i, a := range k.Scope.Actions {
		actions[i] = string(a)
	}
	return api.APIKey{ID: k.ID, Name: k.Name, Scope: api.APIKeyScope{Actions: actions, LibraryIDs: k.Scope.LibraryIDs},
		LastUsedAt: k.LastUsedAt, CreatedAt: k.CreatedAt, UpdatedAt: k.UpdatedAt}
}

func fromAPIScope(s *api.APIKeyScope) *catalog.Scope {
	if s == nil {
		return nil
	}
	out := &catalog.Scope{Actions: make([]catalog.Action, len(s.Actions)), LibraryIDs: s.LibraryIDs}
	for i, a := range s.Actions {
		out.Actions[i] = catalog.Action(a)
	}
	return out
}

func toAPIPreferences(p catalog.Preferences) api.Preferences {
	return api.Preferences{ImmichLibraryID: p.ImmichLibraryID, DefaultLibraryID: p.DefaultLibraryID}
}

// pageOf wraps converted items in the list envelope; data is never null.
func pageOf[T, W any](items []T, more bool, conv func(*T) W) api.Page[W] {
	out := make([]W, len(items))
	for i := range items {
		out[i] = conv(&items[i])
	}
	return api.Page[W]{Data: out, HasMore: more}
}
