// Package store declares the persistence contracts of the server. Each
// interface is narrow and states its guarantees; the repositories are
// written once in sqlstore over SQLite (sqlite) and PostgreSQL (postgres),
// which keep what truly differs, and every store passes the same
// conformance tests (storetest). The values callers fill in to ask for
// rows (filters, pages, counts, clusters, claims, searches) are
// server/query's, so callers that only ask, such as the HTTP layer, need
// not import this package.
//
// Errors: a missing row is catalog.ErrNotFound, a unique-constraint violation
// is catalog.ErrConflict (both wrapped). Implementations translate driver
// errors once, so callers never see driver types.
package store

import (
	"context"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
)

// Store is a database: reads go to a pool of readers, writes run inside
// InTx or InLibraryTx.
//
// Contract of the write transactions: an InTx runs alone, after every write
// transaction that began before it has ended and before any that begins
// after it; InLibraryTx transactions of one library run one at a time.
// So a check and the write that depends on it, in one transaction, hold:
// in InTx whatever they read, in InLibraryTx as long as both stay within
// the library (see InLibraryTx). A store may run InLibraryTx transactions
// of different libraries at the same time (ParallelLibraryWriter), or every
// write transaction one at a time.
type Store interface {
	// Read returns repositories over the reader pool. Reads see every
	// committed transaction.
	Read() Repos
	// InTx runs fn in one write transaction and commits it if fn returns nil.
	// Anything fn wrote is rolled back when it returns an error or panics.
	InTx(ctx context.Context, fn func(Repos) error) error
	// InLibraryTx is InTx for a transaction whose checks and writes stay
	// within library libraryID: its rows and the rows of its assets,
	// albums, stacks, people, faces, tags, tasks and events. It may run
	// beside the transactions of other libraries, so what it reads outside
	// the library may change before it commits: a row it writes that other
	// libraries write too (an owner's storage use) must be changed by one
	// statement, or written before it is read so that its row lock orders
	// the writers (see the asset service's charge). Events it appends are
	// of libraryID. An empty libraryID makes it InTx. Resources never move
	// to another library, so the caller may read which library to name
	// before the transaction (AssetsLibrary).
	InLibraryTx(ctx context.Context, libraryID string, fn func(Repos) error) error
	// Close releases the database.
	Close() error
}

// ParallelLibraryWriter is a Store whose InLibraryTx transactions of
// different libraries run at the same time (PostgreSQL, where several
// servers and workers share one database). A Store without it runs every
// write transaction one at a time (SQLite's single writer).
type ParallelLibraryWriter interface {
	Store
	// ParallelLibraryWrites reports whether InLibraryTx transactions of
	// different libraries run at the same time.
	ParallelLibraryWrites() bool
}

// Repos gives access to every repository over one connection or transaction.
type Repos interface {
	Users() Users
	Libraries() Libraries
	APIKeys() APIKeys
	Sessions() Sessions
	Events() Events
	Settings() Settings
	Assets() Assets
	AssetAggregates() AssetAggregates
	Storage() Storage
	BlobJournal() BlobJournal
	AssetVersions() AssetVersions
	Albums() Albums
	Stacks() Stacks
	Bursts() Bursts
	People() People
	Faces() Faces
	Clustering() Clustering
	AssetTexts() AssetTexts
	Tasks() Tasks
	Invitations() Invitations
	Search() Search
	Identities() Identities
	OAuth() OAuth
	Tags() Tags
}

// Users stores accounts and their preferences.
type Users interface {
	Create(ctx context.Context, u *catalog.User) error
	Get(ctx context.Context, id string) (*catalog.User, error)
	// GetByEmail matches case-insensitively.
	GetByEmail(ctx context.Context, email string) (*catalog.User, error)
	Update(ctx context.Context, u *catalog.User) error
	// List pages every account, newest first (by id). A non-empty email
	// keeps the accounts whose e-mail contains it, case-insensitively.
	List(ctx context.Context, email string, p query.Page) ([]catalog.User, bool, error)
	// CountActiveSuperusers counts the active superusers. Inside InTx it
	// locks the rows it counts until the transaction ends, so two
	// transactions cannot each demote one of the last two.
	CountActiveSuperusers(ctx context.Context) (int, error)
	// Delete removes an account with the libraries it owns and what is left
	// in them (albums, stacks, people, tasks, events, members,
	// invitations). Those libraries must hold no assets (ErrConflict
	// otherwise): delete the assets first, so that their files go too.
	// Assets and versions the user contributed to other libraries are
	// attributed to those libraries' owners. A missing user is ErrNotFound.
	Delete(ctx context.Context, id string) error
	Preferences(ctx context.Context, userID string) (catalog.Preferences, error)
	SetPreferences(ctx context.Context, userID string, p catalog.Preferences) error
}

// Libraries stores libraries and their members. Only live (not trashed)
// libraries count as reachable unless a method says otherwise.
type Libraries interface {
	// Create inserts the library and its owner's membership.
	Create(ctx context.Context, l *catalog.Library) error
	Get(ctx context.Context, id string) (*catalog.Library, error)
	Update(ctx context.Context, l *catalog.Library) error
	// Membership returns the user's role in a library, trashed or not, or
	// ErrNotFound when the user is not a member.
	Membership(ctx context.Context, libraryID, userID string) (*catalog.Membership, error)
	// ListForUser pages the libraries a user is a member of, newest first.
	ListForUser(ctx context.Context, f query.LibraryFilter, p query.Page) ([]catalog.Membership, bool, error)
	// LiveMemberships returns the user's role in every live library they
	// belong to, in library id order (the order of creation).
	LiveMemberships(ctx context.Context, userID string) ([]catalog.Membership, error)
	// FindOwnedByName finds a library the user owns by name key
	// (catalog.NameKey), trashed or not.
	FindOwnedByName(ctx context.Context, ownerID, nameKey string) (*catalog.Library, error)
	// CountLiveOwned counts the live libraries a user owns.
	CountLiveOwned(ctx context.Context, ownerID string) (int, error)
	// WithPositions returns the ids of the libraries, live or trashed,
	// holding an asset (live or trashed) with a position, in id order:
	// those a new geocoder's data may name differently.
	WithPositions(ctx context.Context) ([]string, error)
	MemberStore
}

// APIKeys stores API key records.
type APIKeys interface {
	Create(ctx context.Context, k *catalog.APIKey) error
	// Get returns the key of user userID with the given id.
	Get(ctx context.Context, userID, id string) (*catalog.APIKey, error)
	// GetByHash returns the key whose secret hashes to hash, with the user
	// it belongs to, in one query: authentication reads both on every
	// request made with a key.
	GetByHash(ctx context.Context, hash []byte) (*catalog.APIKey, *catalog.User, error)
	List(ctx context.Context, f query.APIKeyFilter, p query.Page) ([]catalog.APIKey, bool, error)
	Update(ctx context.Context, k *catalog.APIKey) error
	Delete(ctx context.Context, userID, id string) error
	// Touch sets last_used_at to t unless it is already within minGap of t,
	// so a busy key does not write on every request.
	Touch(ctx context.Context, id string, t time.Time, minGap time.Duration) error
}

// Sessions stores first-party sessions and their refresh-token chains.
type Sessions interface {
	Create(ctx context.Context, s *catalog.Session) error
	Get(ctx context.Context, id string) (*catalog.Session, error)
	// GetWithUser returns the session with the user it belongs to, in one
	// query: authentication reads both on every request with a session.
	GetWithUser(ctx context.Context, id string) (*catalog.Session, *catalog.User, error)
	// Revoke marks the session and all its refresh tokens unusable.
	Revoke(ctx context.Context, id string, t time.Time) error
	// RevokeUser revokes every live session of a user, with their refresh
	// tokens, except the session named by keep ("" keeps none).
	RevokeUser(ctx context.Context, userID, keep string, t time.Time) error
	AddRefreshToken(ctx context.Context, rt *catalog.RefreshToken) error
	RefreshTokenByHash(ctx context.Context, hash []byte) (*catalog.RefreshToken, error)
	// MarkRotated sets rotated_at on a token that has not been rotated yet;
	// it returns ErrConflict if another request rotated it first.
	MarkRotated(ctx context.Context, id string, t time.Time) error
}

// Events appends to and reads the change feed.
type Events interface {
	// Append writes e inside the caller's transaction, so the event commits
	// with the change it describes. It may replace e.ID so that ids
	// increase in commit order (catalog.IDAfter the previous event's).
	Append(ctx context.Context, e *catalog.Event) error
	// List pages a library's events oldest first, in commit order.
	List(ctx context.Context, libraryID string, p query.Page) ([]catalog.Event, bool, error)
}

// Identities stores the links between accounts and OpenID provider
// subjects, and the sign-ins through the provider that are in progress.
type Identities interface {
	// Create links a subject to an account; a subject already linked, or an
	// account already linked to another subject of the issuer, is ErrConflict.
	Create(ctx context.Context, id *catalog.Identity) error
	// Get returns the link of (issuer, subject) or ErrNotFound.
	Get(ctx context.Context, issuer, subject string) (*catalog.Identity, error)
	// ForUser returns the account's link at issuer or ErrNotFound.
	ForUser(ctx context.Context, issuer, userID string) (*catalog.Identity, error)
	// AddState stores a sign-in in progress and deletes every state that
	// expired before now.
	AddState(ctx context.Context, st *catalog.OIDCState, now time.Time) error
	// TakeState deletes the state with the given hash and returns it, so a
	// state is used once; a missing one is ErrNotFound. Expiry is the
	// caller's to check.
	TakeState(ctx context.Context, stateHash []byte) (*catalog.OIDCState, error)
}

// OAuthRecordKind names one kind of protocol record of the OAuth server.
type OAuthRecordKind string

// OAuth record kinds.
const (
	OAuthCode    OAuthRecordKind = "code"    // an authorization code
	OAuthPKCE    OAuthRecordKind = "pkce"    // the PKCE challenge of a code
	OAuthRefresh OAuthRecordKind = "refresh" // a refresh token
)

// OAuthRecord is a protocol record keyed by the signature (a keyed hash) of
// its token; the token itself is never stored. Data is opaque to the store.
type OAuthRecord struct {
	Kind      OAuthRecordKind
	Signature string
	GrantID   string
	Data      []byte
	Active    bool // false once a code is used or a refresh token rotated
	ExpiresAt time.Time
}

// OAuth stores the OAuth authorization server's clients, grants and
// protocol records. A grant is the family of one authorization; revoking it
// (RevokeGrant) deactivates all its records.
type OAuth interface {
	CreateClient(ctx context.Context, c *catalog.OAuthClient) error
	// GetClient returns a client, revoked or not, or ErrNotFound.
	GetClient(ctx context.Context, id string) (*catalog.OAuthClient, error)
	// ListClients pages every client, newest first.
	ListClients(ctx context.Context, p query.Page) ([]catalog.OAuthClient, bool, error)
	// RevokeClient sets revoked_at if it is unset; a missing client is
	// ErrNotFound. Revoking twice keeps the first time.
	RevokeClient(ctx context.Context, id string, t time.Time) error
	CreateGrant(ctx context.Context, g *catalog.OAuthGrant) error
	// GetGrant returns a grant with its client's revocation time (one
	// indexed lookup; it runs on every OAuth-authenticated request).
	GetGrant(ctx context.Context, id string) (*catalog.OAuthGrant, error)
	// RevokeGrant sets revoked_at if unset and deactivates every record of
	// the grant. A missing grant is ErrNotFound.
	RevokeGrant(ctx context.Context, id string, t time.Time) error
	// PutRecord stores a record; an existing (kind, signature) is ErrConflict.
	PutRecord(ctx context.Context, r *OAuthRecord) error
	// GetRecord returns a record, active or not, or ErrNotFound.
	GetRecord(ctx context.Context, kind OAuthRecordKind, signature string) (*OAuthRecord, error)
	// DeactivateRecord marks one active record used; ErrNotFound if there
	// is no such active record (so of two racing uses, one fails).
	DeactivateRecord(ctx context.Context, kind OAuthRecordKind, signature string) error
	// DeleteRecord removes a record; a missing one is not an error.
	DeleteRecord(ctx context.Context, kind OAuthRecordKind, signature string) error
}

// Settings stores server-wide values such as the token signing key.
type Settings interface {
	Get(ctx context.Context, key string) ([]byte, error)
	// PutIfAbsent stores value unless key exists, and returns the stored value.
	PutIfAbsent(ctx context.Context, key string, value []byte) ([]byte, error)
}
