// Package libraries manages libraries and decides which library a request
// works on (the spec's library-selection rule).
package libraries

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// Service manages libraries.
type Service struct {
	store store.Store
	now   func() time.Time
}

// NewService returns a library service.
func NewService(st store.Store, now func() time.Time) *Service {
	return &Service{store: st, now: now}
}

// Listing selects libraries by lifecycle state.
type Listing int

// Listings: live libraries (the default), trashed ones, or both.
const (
	ListLive Listing = iota
	ListTrashed
	ListAll
)

// List pages the caller's libraries with the caller's role. A scoped
// credential sees only the libraries in its scope.
func (s *Service) List(ctx context.Context, p *catalog.Principal, which Listing, pg query.Page) ([]catalog.Membership, bool, error) {
	f := query.LibraryFilter{UserID: p.User.ID, IncludeTrashed: which == ListAll, OnlyTrashed: which == ListTrashed}
	if p.Scope != nil && p.Scope.LibraryIDs != nil {
		f.IDs = p.Scope.LibraryIDs
	}
	return s.store.Read().Libraries().ListForUser(ctx, f, pg)
}

// Get reads one library the caller can reach.
func (s *Service) Get(ctx context.Context, p *catalog.Principal, id string) (*catalog.Membership, error) {
	return s.reach(ctx, s.store.Read(), p, id)
}

// Reach returns the caller's membership of a live library they can reach
// with this credential (see reach).
func (s *Service) Reach(ctx context.Context, r store.Repos, p *catalog.Principal, id string) (*catalog.Membership, error) {
	return s.reach(ctx, r, p, id)
}

// ReachResource is Reach for the library that holds a resource: when the
// caller cannot reach that library, the resource itself (named by what,
// e.g. "album album_…") is not found, so its existence is not leaked.
func (s *Service) ReachResource(ctx context.Context, r store.Repos, p *catalog.Principal, libraryID, what string) (*catalog.Membership, error) {
	m, err := s.reach(ctx, r, p, libraryID)
	if errors.Is(err, catalog.ErrNotFound) {
		return nil, fmt.Errorf("%s: %w", what, catalog.ErrNotFound)
	}
	return m, err
}

// reach returns the caller's membership of a live library: 404 when the
// caller is not a member (existence is not leaked) or it is trashed, 403 when
// the credential's library scope excludes it.
func (s *Service) reach(ctx context.Context, r store.Repos, p *catalog.Principal, id string) (*catalog.Membership, error) {
	m, err := r.Libraries().Membership(ctx, id, p.User.ID)
	if err != nil {
		return nil, err
	}
	if m.Library.TrashedAt != nil {
		return nil, fmt.Errorf("library %s is in the trash: %w", id, catalog.ErrNotFound)
	}
	if !p.CoversLibrary(id) {
		return nil, fmt.Errorf("this credential's scope does not include library %s: %w", id, catalog.ErrForbidden)
	}
	return m, nil
}

// Select applies the library-selection rule: an explicit id must be a
// library the caller reaches; without one, the caller's only library is
// chosen, and several libraries make library_id required. loc locates the
// parameter in a 422 (for example "query", "library_id").
func (s *Service) Select(ctx context.Context, p *catalog.Principal, id string, loc ...any) (*catalog.Membership, error) {
	r := s.store.Read()
	if id != "" {
		return s.reach(ctx, r, p, id)
	}
	reachable, err := s.reachable(ctx, r, p)
	if err != nil {
		return nil, err
	}
	switch len(reachable) {
	case 0:
		return nil, fmt.Errorf("you have no library this credential can reach: %w", catalog.ErrNotFound)
	case 1:
		return &reachable[0], nil
	default:
		return nil, catalog.InvalidField("missing",
			"library_id is required because you have several libraries", nil, loc...)
	}
}

// Readable returns the ids of the live libraries the caller can read with
// this credential (every role reads), for lists that span them.
func (s *Service) Readable(ctx context.Context, r store.Repos, p *catalog.Principal) ([]string, error) {
	ms, err := s.reachable(ctx, r, p)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(ms))
	for i, m := range ms {
		ids[i] = m.Library.ID
	}
	return ids, nil
}

// reachable is the caller's live memberships that the credential covers.
func (s *Service) reachable(ctx context.Context, r store.Repos, p *catalog.Principal) ([]catalog.Membership, error) {
	ms, err := r.Libraries().LiveMemberships(ctx, p.User.ID)
	if err != nil {
		return nil, err
	}
	var out []catalog.Membership
	for _, m := range ms {
		if p.CoversLibrary(m.Library.ID) {
			out = append(out, m)
		}
	}
	return out, nil
}

// Create applies the named-create rule to the caller's own libraries: the
// same name returns the existing library (created false); a trashed library
// of that name is a conflict until it is restored.
func (s *Service) Create(ctx context.Context, p *catalog.Principal, name string) (*catalog.Membership, bool, error) {
	name, err := catalog.CleanName(name, "body", "name")
	if err != nil {
		return nil, false, err
	}
	var lib *catalog.Library
	var created bool
	err = s.store.InTx(ctx, func(r store.Repos) error {
		var err error
		lib, created, err = catalog.NamedCreate(
			func() (*catalog.Library, error) {
				return r.Libraries().FindOwnedByName(ctx, p.User.ID, catalog.NameKey(name))
			},
			func(l *catalog.Library) error {
				if l.TrashedAt != nil {
					return fmt.Errorf("a library named %q is in your trash; restore it instead: %w", l.Name, catalog.ErrConflict)
				}
				return nil
			},
			func() (*catalog.Library, error) {
				l, err := CreateOwned(ctx, r, p.User.ID, name, s.clock())
				return l, err
			},
		)
		return err
	})
	if err != nil {
		return nil, false, err
	}
	return &catalog.Membership{Library: *lib, Role: catalog.RoleOwner}, created, nil
}

// CreateOwned inserts a library owned by userID and its library.created
// event inside the caller's transaction.
func CreateOwned(ctx context.Context, r store.Repos, userID, name string, now time.Time) (*catalog.Library, error) {
	l := &catalog.Library{ID: catalog.NewID(catalog.PrefixLibrary, now), Name: name, OwnerID: userID,
		CreatedAt: now, UpdatedAt: now}
	if err := r.Libraries().Create(ctx, l); err != nil {
		if errors.Is(err, catalog.ErrConflict) {
			return nil, fmt.Errorf("library name %q is taken: %w", name, catalog.ErrConflict)
		}
		return nil, err
	}
	data, _ := json.Marshal(map[string]string{"name": l.Name, "owner_id": userID})
	return l, r.Events().Append(ctx, &catalog.Event{ID: catalog.NewID(catalog.PrefixEvent, now),
		Type: "library.created", LibraryID: l.ID, ResourceID: l.ID, Data: data, CreatedAt: now})
}

// Rename renames a library the caller owns; a name the owner already uses
// for another library is a conflict.
func (s *Service) Rename(ctx context.Context, p *catalog.Principal, id, name string) (*catalog.Membership, error) {
	name, err := catalog.CleanName(name, "body", "name")
	if err != nil {
		return nil, err
	}
	var m *catalog.Membership
	err = s.store.InTx(ctx, func(r store.Repos) error {
		if m, err = s.reach(ctx, r, p, id); err != nil {
			return err
		}
		if !m.Role.IsOwner() {
			return catalog.Coded(catalog.ErrForbidden, "not_library_owner", "only the library's owner can rename it")
		}
		now := s.clock()
		m.Library.Name, m.Library.UpdatedAt = name, now
		if err := r.Libraries().Update(ctx, &m.Library); err != nil {
			if errors.Is(err, catalog.ErrConflict) {
				return fmt.Errorf("you already have a library named %q: %w", name, catalog.ErrConflict)
			}
			return err
		}
		data, _ := json.Marshal(map[string]string{"name": name})
		return r.Events().Append(ctx, &catalog.Event{ID: catalog.NewID(catalog.PrefixEvent, now),
			Type: "library.updated", LibraryID: id, ResourceID: id, Data: data, CreatedAt: now})
	})
	return m, err
}
