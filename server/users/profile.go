package users

import (
	"context"

	"github.com/photoctl/photoctl/server/auth"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// ProfileChange is the caller's partial update of their own account; nil
// fields stay. A new Password needs the CurrentPassword.
type ProfileChange struct {
	FirstName, LastName *string
	CurrentPassword     *string
	Password            *string
}

// UpdateMe applies the caller's change. A wrong or missing current
// password is a validation error (422 at body.current_password), not a
// 401: the caller's credential is fine, and a 401 would send clients to
// sign in again. A password change ends every other session of the
// account (the caller's own session, if it used one, stays).
func (s *Service) UpdateMe(ctx context.Context, p *catalog.Principal, ch ProfileChange) (*catalog.User, error) {
	var hash string
	if ch.Password != nil {
		if ch.CurrentPassword == nil {
			return nil, catalog.InvalidField("missing", "current_password is required to change the password",
				nil, "body", "current_password")
		}
		ok, err := auth.VerifyPassword(p.User.PasswordHash, *ch.CurrentPassword)
		if err != nil || !ok {
			return nil, catalog.InvalidField("value_error", "current_password is not the account's password",
				nil, "body", "current_password")
		}
		if hash, err = s.hash(*ch.Password, "body", "password"); err != nil {
			return nil, err
		}
	}
	if err := checkNames(ch.FirstName, ch.LastName); err != nil {
		return nil, err
	}
	var out *catalog.User
	err := s.store.InTx(ctx, func(r store.Repos) error {
		u, err := r.Users().Get(ctx, p.User.ID)
		if err != nil {
			return err
		}
		setIf(&u.FirstName, ch.FirstName)
		setIf(&u.LastName, ch.LastName)
		u.UpdatedAt = s.now().UTC()
		if hash != "" {
			u.PasswordHash = hash
			keep := ""
			if p.Kind == catalog.CredSession {
				keep = p.CredentialID
			}
			if err := r.Sessions().RevokeUser(ctx, u.ID, keep, u.UpdatedAt); err != nil {
				return err
			}
		}
		out = u
		return r.Users().Update(ctx, u)
	})
	return out, err
}

// Usage is a user's storage allowance and what is charged to it: the
// files of every library the user owns, whoever uploaded them.
type Usage struct {
	QuotaBytes *int64 // nil: unlimited
	UsedBytes  int64
}

// Storage returns the caller's usage.
func (s *Service) Storage(ctx context.Context, p *catalog.Principal) (Usage, error) {
	used, err := s.store.Read().Storage().Used(ctx, p.User.ID)
	if err != nil {
		return Usage{}, err
	}
	return Usage{QuotaBytes: p.User.QuotaBytes, UsedBytes: used}, nil
}

// checkNames refuses first and last names with control characters or
// terminal escape sequences (422), as every other name: other members'
// terminals print them. nil names are not changed, and pass.
func checkNames(first, last *string) error {
	if first != nil {
		if err := catalog.CheckText(*first, "body", "first_name"); err != nil {
			return err
		}
	}
	if last != nil {
		return catalog.CheckText(*last, "body", "last_name")
	}
	return nil
}
