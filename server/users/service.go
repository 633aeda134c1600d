// Package users manages accounts and their preferences.
package users

import (
	"context"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"

	"github.com/photoctl/photoctl/server/auth"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/libraries"
	"github.com/photoctl/photoctl/server/store"
)

// FirstLibraryName names the library every new account starts with.
const FirstLibraryName = "My Library"

// Service manages users.
type Service struct {
	store  store.Store
	libs   *libraries.Service
	now    func() time.Time
	cost   auth.PasswordCost
	purger LibraryPurger
}

// LibraryPurger permanently deletes every asset of a library, with its
// files (assets.Service does, through its deletion path).
type LibraryPurger interface {
	PurgeLibrary(ctx context.Context, libraryID string) error
}

// Option configures a Service.
type Option func(*Service)

// WithLibraryPurger lets Delete remove the assets of a deleted user's
// libraries; without it deleting a user whose libraries hold assets is a
// conflict.
func WithLibraryPurger(p LibraryPurger) Option { return func(s *Service) { s.purger = p } }

// NewService returns a user service that hashes new passwords at cost
// (the zero value: auth.DefaultPasswordCost).
func NewService(st store.Store, libs *libraries.Service, now func() time.Time, cost auth.PasswordCost, opts ...Option) *Service {
	s := &Service{store: st, libs: libs, now: now, cost: cost}
	for _, o := range opts {
		o(s)
	}
	return s
}

// NewUser describes an account to create.
type NewUser struct {
	Email     string
	Password  string
	FirstName string
	LastName  string
	Superuser bool
	// QuotaBytes is the storage allowance; nil is unlimited.
	QuotaBytes *int64
}

// Create makes an active account with its first library, in one
// transaction. A taken e-mail is a conflict.
func (s *Service) Create(ctx context.Context, in NewUser) (*catalog.User, error) {
	addr, err := mail.ParseAddress(strings.TrimSpace(in.Email))
	if err != nil || addr.Address != strings.TrimSpace(in.Email) {
		return nil, catalog.InvalidField("value_error", "not a valid e-mail address", in.Email, "body", "email")
	}
	if err := checkQuota(in.QuotaBytes); err != nil {
		return nil, err
	}
	if err := checkNames(&in.FirstName, &in.LastName); err != nil {
		return nil, err
	}
	hash, err := s.hash(in.Password, "body", "password")
	if err != nil {
		return nil, err
	}
	now := s.now()
	u := &catalog.User{ID: catalog.NewID(catalog.PrefixUser, now), Email: addr.Address, FirstName: in.FirstName,
		LastName: in.LastName, PasswordHash: hash, IsActive: true, IsSuperuser: in.Superuser,
		QuotaBytes: in.QuotaBytes, CreatedAt: now, UpdatedAt: now}
	err = s.store.InTx(ctx, func(r store.Repos) error {
		if err := r.Users().Create(ctx, u); err != nil {
			if errors.Is(err, catalog.ErrConflict) {
				return fmt.Errorf("an account with e-mail %s exists: %w", u.Email, catalog.ErrConflict)
			}
			return err
		}
		_, err := libraries.CreateOwned(ctx, r, u.ID, FirstLibraryName, now)
		return err
	})
	if err != nil {
		return nil, err
	}
	return u, nil
}

// SetActive activates or deactivates an account; an inactive account cannot
// authenticate with any credential from the next request on.
func (s *Service) SetActive(ctx context.Context, id string, active bool) error {
	return s.store.InTx(ctx, func(r store.Repos) error {
		u, err := r.Users().Get(ctx, id)
		if err != nil {
			return err
		}
		u.IsActive, u.UpdatedAt = active, s.now()
		return r.Users().Update(ctx, u)
	})
}

// SetQuota sets a user's storage allowance in bytes; nil is unlimited.
func (s *Service) SetQuota(ctx context.Context, id string, quota *int64) error {
	return s.store.InTx(ctx, func(r store.Repos) error {
		u, err := r.Users().Get(ctx, id)
		if err != nil {
			return err
		}
		u.QuotaBytes, u.UpdatedAt = quota, s.now()
		return r.Users().Update(ctx, u)
	})
}

// Preferences reads the caller's preferences.
func (s *Service) Preferences(ctx context.Context, p *catalog.Principal) (catalog.Preferences, error) {
	return s.store.Read().Users().Preferences(ctx, p.User.ID)
}

// PreferencesChange is a partial update; a field that is nil stays, a field
// pointing at "" clears the preference.
type PreferencesChange struct {
	ImmichLibraryID  *string
	DefaultLibraryID *string
}

// UpdatePreferences applies a change. A library named in a preference must
// be one the caller reaches.
func (s *Service) UpdatePreferences(ctx context.Context, p *catalog.Principal, ch PreferencesChange) (catalog.Preferences, error) {
	var out catalog.Preferences
	for _, f := range []struct {
		v   *string
		loc string
	}{{ch.ImmichLibraryID, "immich_library_id"}, {ch.DefaultLibraryID, "default_library_id"}} {
		if f.v == nil || *f.v == "" {
			continue
		}
		if _, err := s.libs.Get(ctx, p, *f.v); err != nil {
			if errors.Is(err, catalog.ErrNotFound) || errors.Is(err, catalog.ErrForbidden) {
				return out, catalog.InvalidField("value_error", "not a library you can reach", *f.v, "body", f.loc)
			}
			return out, err
		}
	}
	err := s.store.InTx(ctx, func(r store.Repos) error {
		cur, err := r.Users().Preferences(ctx, p.User.ID)
		if err != nil {
			return err
		}
		cur.ImmichLibraryID = apply(cur.ImmichLibraryID, ch.ImmichLibraryID)
		cur.DefaultLibraryID = apply(cur.DefaultLibraryID, ch.DefaultLibraryID)
		out = cur
		return r.Users().SetPreferences(ctx, p.User.ID, cur)
	})
	return out, err
}

func apply(cur, change *string) *string {
	switch {
	case change == nil:
		return cur
	case *change == "":
		return nil
	default:
		v := *change
		return &v
	}
}
