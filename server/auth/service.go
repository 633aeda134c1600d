// Package auth signs users in and decides who a request's credential
// belongs to: first-party sessions (JWT + rotating refresh tokens), API keys
// and, later, OAuth access tokens.
package auth

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// APIKeyPrefix starts every API key secret.
const APIKeyPrefix = "apikey_"

const refreshPrefix = "rt_"

// Config sets token lifetimes.
type Config struct {
	AccessTTL  time.Duration
	RefreshTTL time.Duration
}

// Service authenticates requests and manages credentials.
type Service struct {
	store store.Store
	cfg   Config
	now   func() time.Time
	key   []byte
}

// NewService loads (or creates) the token signing key.
func NewService(ctx context.Context, st store.Store, cfg Config, now func() time.Time) (*Service, error) {
	key, err := loadSigningKey(ctx, st)
	if err != nil {
		return nil, fmt.Errorf("load signing key: %w", err)
	}
	return &Service{store: st, cfg: cfg, now: now, key: key}, nil
}

var errBadLogin = fmt.Errorf("incorrect e-mail or password: %w", catalog.ErrUnauthenticated)

// Login checks a password and opens a new session.
func (s *Service) Login(ctx context.Context, email, password string) (*Tokens, *catalog.User, error) {
	u, err := s.store.Read().Users().GetByEmail(ctx, email)
	if errors.Is(err, catalog.ErrNotFound) {
		_, _ = VerifyPassword(dummyHash, password)
		return nil, nil, errBadLogin
	}
	if err != nil {
		return nil, nil, err
	}
	ok, err := VerifyPassword(u.PasswordHash, password)
	if err != nil || !ok || !u.IsActive {
		// An inactive account answers like a wrong password: no enumeration.
		return nil, nil, errBadLogin
	}
	now := s.now()
	sess := &catalog.Session{ID: catalog.NewID(catalog.PrefixSession, now), UserID: u.ID, CreatedAt: now,
		ExpiresAt: now.Add(s.cfg.RefreshTTL)}
	var tokens *Tokens
	err = s.store.InTx(ctx, func(r store.Repos) error {
		if err := r.Sessions().Create(ctx, sess); err != nil {
			return err
		}
		tokens, err = s.issue(ctx, r, sess, u.ID, now)
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	return tokens, u, nil
}

// issue signs an access token and stores a new refresh token for sess.
func (s *Service) issue(ctx context.Context, r store.Repos, sess *catalog.Session, userID string, now time.Time) (*Tokens, error) {
	access, err := s.sign(claims{Type: typSession, SessionID: sess.ID, RegisteredClaims: jwt.RegisteredClaims{
		Issuer: issuer, Subject: userID, IssuedAt: jwt.NewNumericDate(now),
		ExpiresAt: jwt.NewNumericDate(now.Add(s.cfg.AccessTTL)),
		ID:        catalog.NewID("", now),
	}})
	if err != nil {
		return nil, fmt.Errorf("sign access token: %w", err)
	}
	secret, hash, err := newSecret(refreshPrefix)
	if err != nil {
		return nil, err
	}
	rt := &catalog.RefreshToken{ID: catalog.NewID(catalog.PrefixRefresh, now), SessionID: sess.ID,
		UserID: userID, Hash: hash, CreatedAt: now, ExpiresAt: sess.ExpiresAt}
	if err := r.Sessions().AddRefreshToken(ctx, rt); err != nil {
		return nil, err
	}
	return &Tokens{AccessToken: access, RefreshToken: secret, ExpiresIn: s.cfg.AccessTTL}, nil
}

var errBadRefresh = fmt.Errorf("invalid or expired refresh token: %w", catalog.ErrUnauthenticated)

// Refresh rotates a refresh token. Presenting a token that was already
// rotated means it leaked: the whole session (its family) is revoked.
func (s *Service) Refresh(ctx context.Context, token string) (*Tokens, error) {
	if !strings.HasPrefix(token, refreshPrefix) {
		return nil, errBadRefresh
	}
	now := s.now()
	var tokens *Tokens
	var reused bool
	err := s.store.InTx(ctx, func(r store.Repos) error {
		rt, err := r.Sessions().RefreshTokenByHash(ctx, hashSecret(token))
		if errors.Is(err, catalog.ErrNotFound) {
			return errBadRefresh
		}
		if err != nil {
			return err
		}
		sess, err := r.Sessions().Get(ctx, rt.SessionID)
		if err != nil {
			return err
		}
		if sess.RevokedAt != nil || !now.Before(rt.ExpiresAt) {
			return errBadRefresh
		}
		if rt.RotatedAt != nil {
			reused = true
			return r.Sessions().Revoke(ctx, sess.ID, now)
		}
		u, err := r.Users().Get(ctx, rt.UserID)
		if err != nil {
			return err
		}
		if !u.IsActive {
			return errBadRefresh
		}
		if err := r.Sessions().MarkRotated(ctx, rt.ID, now); err != nil {
			return err
		}
		tokens, err = s.issue(ctx, r, sess, u.ID, now)
		return err
	})
	if err != nil {
		return nil, err
	}
	if reused {
		return nil, fmt.Errorf("refresh token was already used; the session is revoked: %w", catalog.ErrUnauthenticated)
	}
	return tokens, nil
}

// Logout revokes the caller's session. Other credentials have nothing to end.
func (s *Service) Logout(ctx context.Context, p *catalog.Principal) error {
	if p.Kind != catalog.CredSession {
		return nil
	}
	return s.store.InTx(ctx, func(r store.Repos) error {
		return r.Sessions().Revoke(ctx, p.CredentialID, s.now())
	})
}
