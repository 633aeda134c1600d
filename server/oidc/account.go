package oidc

import (
	"context"
	"errors"
	"fmt"
	"net/mail"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/libraries"
	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/users"
)

// account returns the account of a provider identity, inside r:
//   - a linked subject signs in to its account;
//   - a new subject whose verified e-mail belongs to an account links to it,
//     once: an account already linked to another subject of this issuer is a
//     conflict (409) that no retry resolves;
//   - a new subject matching no account gets a new one (with its first
//     library) when CreateAccounts is on, else the sign-in is refused (403).
func (s *Service) account(ctx context.Context, r store.Repos, c *claims) (*catalog.User, error) {
	link, err := r.Identities().Get(ctx, s.cfg.Issuer, c.Subject)
	if err == nil {
		return r.Users().Get(ctx, link.UserID)
	}
	if !errors.Is(err, catalog.ErrNotFound) {
		return nil, err
	}
	addr, err := mail.ParseAddress(c.Email)
	if err != nil || addr.Address != c.Email {
		return nil, fmt.Errorf("the identity provider gave no usable e-mail address for this identity: %w", catalog.ErrForbidden)
	}
	u, err := r.Users().GetByEmail(ctx, c.Email)
	switch {
	case errors.Is(err, catalog.ErrNotFound):
		if !s.cfg.CreateAccounts {
			return nil, fmt.Errorf("no account has the e-mail %s and this server does not create accounts on sign-in; ask an administrator: %w",
				c.Email, catalog.ErrForbidden)
		}
		return s.create(ctx, r, c)
	case err != nil:
		return nil, err
	}
	if !c.verified() {
		return nil, fmt.Errorf("the identity provider has not verified the e-mail %s, so it cannot be linked to the account that has it: %w",
			c.Email, catalog.ErrForbidden)
	}
	if _, err := r.Identities().ForUser(ctx, s.cfg.Issuer, u.ID); err == nil {
		return nil, fmt.Errorf("the account with e-mail %s is linked to another identity of this provider: %w",
			c.Email, catalog.ErrConflict)
	} else if !errors.Is(err, catalog.ErrNotFound) {
		return nil, err
	}
	if !u.IsActive {
		return u, nil // refused by the caller; nothing is linked
	}
	return u, s.link(ctx, r, c, u.ID)
}

// create makes an active account without a password, its first library
// (with its library.created event) and the link.
func (s *Service) create(ctx context.Context, r store.Repos, c *claims) (*catalog.User, error) {
	now := s.now()
	u := &catalog.User{ID: catalog.NewID(catalog.PrefixUser, now), Email: c.Email, FirstName: c.GivenName,
		LastName: c.FamilyName, IsActive: true, IsVerified: c.verified(), CreatedAt: now, UpdatedAt: now}
	if err := r.Users().Create(ctx, u); err != nil {
		return nil, err
	}
	if _, err := libraries.CreateOwned(ctx, r, u.ID, users.FirstLibraryName, now); err != nil {
		return nil, err
	}
	return u, s.link(ctx, r, c, u.ID)
}

func (s *Service) link(ctx context.Context, r store.Repos, c *claims, userID string) error {
	return r.Identities().Create(ctx, &catalog.Identity{Issuer: s.cfg.Issuer, Subject: c.Subject, UserID: userID,
		Email: c.Email, CreatedAt: s.now()})
}
