package users

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"

	"github.com/photoctl/photoctl/server/auth"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// MinPasswordLength is the shortest password an account may have.
const MinPasswordLength = 8

// errNotSuperuser refuses administration to an ordinary account, whatever
// its credential.
var errNotSuperuser = fmt.Errorf("administering users needs a superuser account: %w", catalog.ErrForbidden)

// requireSuperuser lets only superusers administer. Which credentials of a
// superuser may do so is the route's business: a first-party session, or
// an API key or OAuth token whose scope grants the route's user.* action.
func requireSuperuser(p *catalog.Principal) error {
	if p == nil || !p.User.IsSuperuser {
		return errNotSuperuser
	}
	return nil
}

// List pages every account, newest first; email filters by substring.
func (s *Service) List(ctx context.Context, p *catalog.Principal, email string, pg query.Page) ([]catalog.User, bool, error) {
	if err := requireSuperuser(p); err != nil {
		return nil, false, err
	}
	return s.store.Read().Users().List(ctx, email, pg)
}

// Get returns one account.
func (s *Service) Get(ctx context.Context, p *catalog.Principal, id string) (*catalog.User, error) {
	if err := requireSuperuser(p); err != nil {
		return nil, err
	}
	return s.store.Read().Users().Get(ctx, id)
}

// AdminCreate creates an account for a superuser. Without a password it
// generates one and returns it (shown once); otherwise generated is "".
func (s *Service) AdminCreate(ctx context.Context, p *catalog.Principal, in NewUser) (u *catalog.User, generated string, err error) {
	if err := requireSuperuser(p); err != nil {
		return nil, "", err
	}
	if in.Password == "" {
		b := make([]byte, 18)
		if _, err := rand.Read(b); err != nil {
			return nil, "", fmt.Errorf("generate password: %w", err)
		}
		generated = base64.RawURLEncoding.EncodeToString(b)
		in.Password = generated
	}
	u, err = s.Create(ctx, in)
	if err != nil {
		return nil, "", err
	}
	return u, generated, nil
}

// Change is a superuser's partial update of an account; nil fields stay.
type Change struct {
	FirstName, LastName *string
	IsActive            *bool
	IsSuperuser         *bool
	// SetQuota applies QuotaBytes (nil then means unlimited).
	SetQuota   bool
	QuotaBytes *int64
	// Password resets the password and ends every session of the account.
	Password *string
}

// Update applies a superuser's change. Demoting or disabling the last
// active superuser is a conflict (code last_superuser).
func (s *Service) Update(ctx context.Context, p *catalog.Principal, id string, ch Change) (*catalog.User, error) {
	if err := requireSuperuser(p); err != nil {
		return nil, err
	}
	if ch.SetQuota {
		if err := checkQuota(ch.QuotaBytes); err != nil {
			return nil, err
		}
	}
	var hash string
	if ch.Password != nil {
		var err error
		if hash, err = s.hash(*ch.Password, "body", "password"); err != nil {
			return nil, err
		}
	}
	if err := checkNames(ch.FirstName, ch.LastName); err != nil {
		return nil, err
	}
	var out *catalog.User
	err := s.store.InTx(ctx, func(r store.Repos) error {
		u, err := r.Users().Get(ctx, id)
		if err != nil {
			return err
		}
		wasAdmin := u.IsActive && u.IsSuperuser
		setIf(&u.FirstName, ch.FirstName)
		setIf(&u.LastName, ch.LastName)
		setIf(&u.IsActive, ch.IsActive)
		setIf(&u.IsSuperuser, ch.IsSuperuser)
		if ch.SetQuota {
			u.QuotaBytes = ch.QuotaBytes
		}
		if wasAdmin && !(u.IsActive && u.IsSuperuser) {
			if err := notLastSuperuser(ctx, r, "demoted or disabled"); err != nil {
				return err
			}
		}
		now := s.now().UTC()
		if hash != "" {
			u.PasswordHash = hash
			if err := r.Sessions().RevokeUser(ctx, u.ID, "", now); err != nil {
				return err
			}
		}
		u.UpdatedAt = now
		out = u
		return r.Users().Update(ctx, u)
	})
	return out, err
}

// notLastSuperuser refuses a change that would leave no active superuser.
func notLastSuperuser(ctx context.Context, r store.Repos, verb string) error {
	n, err := r.Users().CountActiveSuperusers(ctx)
	if err != nil {
		return err
	}
	if n <= 1 {
		return catalog.Coded(catalog.ErrConflict, "last_superuser",
			"the last active superuser cannot be "+verb+": promote another account first")
	}
	return nil
}

// hash checks a new password's length and hashes it; loc names the field.
func (s *Service) hash(password string, loc ...any) (string, error) {
	if len(password) < MinPasswordLength {
		return "", catalog.InvalidField("string_too_short",
			fmt.Sprintf("password must have at least %d characters", MinPasswordLength), nil, loc...)
	}
	return auth.HashPassword(password, s.cost)
}

func checkQuota(q *int64) error {
	if q != nil && *q < 0 {
		return catalog.InvalidField("greater_than_equal", "quota_bytes must be 0 or more", *q, "body", "quota_bytes")
	}
	return nil
}

func setIf[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}
