package auth

import (
	"context"
	"slices"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// KeyChange is a partial update of an API key; nil fields stay as they are.
type KeyChange struct {
	Name  *string
	Scope *catalog.Scope
}

// CreateAPIKey stores a new key for the caller and returns the record and
// the secret, which exists nowhere else afterwards.
func (s *Service) CreateAPIKey(ctx context.Context, p *catalog.Principal, name string, scope *catalog.Scope) (*catalog.APIKey, string, error) {
	name, err := catalog.CleanName(name, "body", "name")
	if err != nil {
		return nil, "", err
	}
	if scope == nil {
		return nil, "", catalog.InvalidField("missing", "an explicit scope is required", nil, "body", "scope")
	}
	if err := s.validateScope(ctx, p.User.ID, *scope); err != nil {
		return nil, "", err
	}
	secret, hash, err := newSecret(APIKeyPrefix)
	if err != nil {
		return nil, "", err
	}
	now := s.now()
	k := &catalog.APIKey{ID: catalog.NewID(catalog.PrefixAPIKey, now), UserID: p.User.ID, Name: name,
		SecretHash: hash, Scope: *scope, CreatedAt: now, UpdatedAt: now}
	err = s.store.InTx(ctx, func(r store.Repos) error { return r.APIKeys().Create(ctx, k) })
	if err != nil {
		return nil, "", err
	}
	return k, secret, nil
}

// validateScope checks every action name and that each library is one the
// user belongs to (a key cannot grant what its owner lacks).
func (s *Service) validateScope(ctx context.Context, userID string, sc catalog.Scope) error {
	if len(sc.Actions) == 0 {
		return catalog.InvalidField("too_short", "scope.actions must name at least one action", sc.Actions,
			"body", "scope", "actions")
	}
	for i, a := range sc.Actions {
		if !a.Valid() {
			return catalog.InvalidField("enum", "unknown action; see the API documentation for the list",
				string(a), "body", "scope", "actions", i)
		}
	}
	if sc.LibraryIDs == nil {
		return nil
	}
	if len(sc.LibraryIDs) == 0 {
		return catalog.InvalidField("too_short", "scope.library_ids must be null (every library) or name at least one library",
			sc.LibraryIDs, "body", "scope", "library_ids")
	}
	live, err := s.store.Read().Libraries().LiveMemberships(ctx, userID)
	if err != nil {
		return err
	}
	for i, id := range sc.LibraryIDs {
		if !slices.ContainsFunc(live, func(m catalog.Membership) bool { return m.Library.ID == id }) {
			return catalog.InvalidField("value_error", "not a library you belong to", id,
				"body", "scope", "library_ids", i)
		}
	}
	return nil
}

// ListAPIKeys pages the caller's keys.
func (s *Service) ListAPIKeys(ctx context.Context, p *catalog.Principal, f query.APIKeyFilter, pg query.Page) ([]catalog.APIKey, bool, error) {
	f.UserID = p.User.ID
	return s.store.Read().APIKeys().List(ctx, f, pg)
}

// GetAPIKey reads one of the caller's keys.
func (s *Service) GetAPIKey(ctx context.Context, p *catalog.Principal, id string) (*catalog.APIKey, error) {
	return s.store.Read().APIKeys().Get(ctx, p.User.ID, id)
}

// UpdateAPIKey renames a key or replaces its scope.
func (s *Service) UpdateAPIKey(ctx context.Context, p *catalog.Principal, id string, ch KeyChange) (*catalog.APIKey, error) {
	var k *catalog.APIKey
	err := s.store.InTx(ctx, func(r store.Repos) error {
		var err error
		if k, err = r.APIKeys().Get(ctx, p.User.ID, id); err != nil {
			return err
		}
		if ch.Name != nil {
			if k.Name, err = catalog.CleanName(*ch.Name, "body", "name"); err != nil {
				return err
			}
		}
		if ch.Scope != nil {
			if err := s.validateScope(ctx, p.User.ID, *ch.Scope); err != nil {
				return err
			}
			k.Scope = *ch.Scope
		}
		k.UpdatedAt = s.now()
		return r.APIKeys().Update(ctx, k)
	})
	return k, err
}

// DeleteAPIKey revokes a key at once.
func (s *Service) DeleteAPIKey(ctx context.Context, p *catalog.Principal, id string) error {
	return s.store.InTx(ctx, func(r store.Repos) error { return r.APIKeys().Delete(ctx, p.User.ID, id) })
}
