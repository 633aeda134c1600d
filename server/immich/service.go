// Package immich holds the Immich compatibility layer (spec
// immich-compat.md) apart from HTTP: the wire types Immich clients read
// (camelCase), checksum and page-token encodings, the mapping of API key
// actions onto Immich permissions, and the use cases the layer adds on top
// of the native services (choosing the library, SHA-1 lookups, the metadata
// search, statistics, album assets). Its handlers are fiber routes in
// server/httpapi/immichapi.
//
// Everything the layer writes goes through the native services (uploads
// through assets, albums through albums), so an asset uploaded by an Immich
// client is an ordinary asset with the ordinary events.
package immich

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/photoctl/photoctl/server/albums"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/libraries"
	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/users"
)

// ErrLibraryChoice reports that the layer cannot tell which library to work
// on (the HTTP layer answers 422 with the message).
var ErrLibraryChoice = errors.New("the library for Immich clients cannot be chosen")

// Service implements the layer's use cases.
type Service struct {
	store  store.Store
	libs   *libraries.Service
	users  *users.Service
	albums *albums.Service
	now    func() time.Time
}

// NewService returns the Immich layer's service.
func NewService(st store.Store, libs *libraries.Service, us *users.Service, al *albums.Service, now func() time.Time) *Service {
	return &Service{store: st, libs: libs, users: us, albums: al, now: now}
}

// Library returns the caller's membership of the library Immich clients
// work on: the one the preference immich_library_id names, else the
// caller's only library. Anything else wraps ErrLibraryChoice, with a
// message naming the preference.
func (s *Service) Library(ctx context.Context, p *catalog.Principal) (*catalog.Membership, error) {
	prefs, err := s.users.Preferences(ctx, p)
	if err != nil {
		return nil, err
	}
	if id := prefs.ImmichLibraryID; id != nil && *id != "" {
		m, err := s.libs.Get(ctx, p, *id)
		if errors.Is(err, catalog.ErrNotFound) || errors.Is(err, catalog.ErrForbidden) {
			return nil, fmt.Errorf("the library %s named by the preference immich_library_id cannot be reached with this credential; "+
				"change it with PATCH /api/users/me/preferences: %w", *id, ErrLibraryChoice)
		}
		return m, err
	}
	m, err := s.libs.Select(ctx, p, "")
	var ve *catalog.ValidationError
	switch {
	case errors.As(err, &ve):
		return nil, fmt.Errorf("you have several libraries: choose the one for Immich clients with the preference "+
			"immich_library_id (PATCH /api/users/me/preferences), or give the client an API key limited to that library "+
			"(photoctl keys create --library NAME): %w", ErrLibraryChoice)
	case errors.Is(err, catalog.ErrNotFound):
		return nil, fmt.Errorf("this credential reaches none of your libraries; set the preference immich_library_id "+
			"to one it reaches: %w", ErrLibraryChoice)
	}
	return m, err
}

// APIKey is the credential of a request as GET /api/api-keys/me shows it.
type APIKey struct {
	ID, Name             string
	CreatedAt, UpdatedAt time.Time
	Permissions          []string
}

// CurrentKey describes the caller's credential: its API key record, or,
// for a session or token, a record named after the credential kind.
func (s *Service) CurrentKey(ctx context.Context, p *catalog.Principal) (*APIKey, error) {
	if p.Kind != catalog.CredAPIKey {
		now := s.now().UTC()
		return &APIKey{ID: p.CredentialID, Name: string(p.Kind), CreatedAt: now, UpdatedAt: now,
			Permissions: Permissions(p)}, nil
	}
	k, err := s.store.Read().APIKeys().Get(ctx, p.User.ID, p.CredentialID)
	if err != nil {
		return nil, err
	}
	return &APIKey{ID: k.ID, Name: k.Name, CreatedAt: k.CreatedAt, UpdatedAt: k.UpdatedAt, Permissions: Permissions(p)}, nil
}
