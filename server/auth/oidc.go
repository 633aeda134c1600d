package auth

import (
	"context"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// OpenSession opens a first-party session for userID inside the caller's
// transaction r and returns its tokens, the same as a password sign-in
// does. It is for sign-ins that proved the user some other way (an OpenID
// provider); the caller has checked that the account is active.
func (s *Service) OpenSession(ctx context.Context, r store.Repos, userID string) (*Tokens, error) {
	now := s.now()
	sess := &catalog.Session{ID: catalog.NewID(catalog.PrefixSession, now), UserID: userID, CreatedAt: now,
		ExpiresAt: now.Add(s.cfg.RefreshTTL)}
	if err := r.Sessions().Create(ctx, sess); err != nil {
		return nil, err
	}
	return s.issue(ctx, r, sess, userID, now)
}
