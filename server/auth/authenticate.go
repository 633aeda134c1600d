package auth

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// keyTouchGap is how stale last_used_at may get before a request rewrites it.
const keyTouchGap = time.Minute

var (
	errNoCredential = fmt.Errorf("missing credential: send Authorization: Bearer <token>: %w", catalog.ErrUnauthenticated)
	errBadKey       = fmt.Errorf("invalid API key: %w", catalog.ErrUnauthenticated)
	errInactive     = fmt.Errorf("account is inactive: %w", catalog.ErrUnauthenticated)
)

// Authenticate resolves the value of an Authorization header into a
// principal. Every failure wraps catalog.ErrUnauthenticated.
func (s *Service) Authenticate(ctx context.Context, header string) (*catalog.Principal, error) {
	scheme, token, ok := strings.Cut(strings.TrimSpace(header), " ")
	if header == "" {
		return nil, errNoCredential
	}
	if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
		return nil, fmt.Errorf("malformed Authorization header: want Bearer <token>: %w", catalog.ErrUnauthenticated)
	}
	token = strings.TrimSpace(token)
	if strings.HasPrefix(token, APIKeyPrefix) {
		return s.authenticateKey(ctx, token)
	}
	return s.authenticateJWT(ctx, token)
}

// AuthenticateAPIKey resolves a raw API key secret (for clients that send
// it in another header, such as the Immich layer's x-api-key).
func (s *Service) AuthenticateAPIKey(ctx context.Context, secret string) (*catalog.Principal, error) {
	if !strings.HasPrefix(secret, APIKeyPrefix) {
		return nil, errBadKey
	}
	return s.authenticateKey(ctx, secret)
}

func (s *Service) authenticateKey(ctx context.Context, secret string) (*catalog.Principal, error) {
	k, u, err := s.store.Read().APIKeys().GetByHash(ctx, hashSecret(secret))
	if errors.Is(err, catalog.ErrNotFound) {
		return nil, errBadKey
	}
	if err != nil {
		return nil, err
	}
	if err := active(u); err != nil {
		return nil, err
	}
	if now := s.now(); k.LastUsedAt == nil || now.Sub(*k.LastUsedAt) >= keyTouchGap {
		err := s.store.InTx(ctx, func(r store.Repos) error {
			return r.APIKeys().Touch(ctx, k.ID, now, keyTouchGap)
		})
		if err != nil {
			return nil, fmt.Errorf("record api key use: %w", err)
		}
	}
	scope := k.Scope
	return &catalog.Principal{User: u, Kind: catalog.CredAPIKey, Scope: &scope, CredentialID: k.ID}, nil
}

func (s *Service) authenticateJWT(ctx context.Context, token string) (*catalog.Principal, error) {
	c, err := s.parse(token)
	if err != nil {
		return nil, err
	}
	switch c.Type {
	case typSession:
		sess, u, err := s.store.Read().Sessions().GetWithUser(ctx, c.SessionID)
		if errors.Is(err, catalog.ErrNotFound) || (err == nil && sess.RevokedAt != nil) {
			return nil, fmt.Errorf("session has ended: %w", catalog.ErrUnauthenticated)
		}
		if err != nil {
			return nil, err
		}
		if u.ID != c.Subject {
			return nil, fmt.Errorf("token subject is not the session's user: %w", catalog.ErrUnauthenticated)
		}
		if err := active(u); err != nil {
			return nil, err
		}
		return &catalog.Principal{User: u, Kind: catalog.CredSession, CredentialID: sess.ID}, nil
	case typOAuth:
		return s.authenticateOAuth(ctx, c) // oauth_tokens.go
	default:
		return nil, fmt.Errorf("unsupported token type: %w", catalog.ErrUnauthenticated)
	}
}

func (s *Service) activeUser(ctx context.Context, id string) (*catalog.User, error) {
	u, err := s.store.Read().Users().Get(ctx, id)
	if errors.Is(err, catalog.ErrNotFound) {
		return nil, fmt.Errorf("account no longer exists: %w", catalog.ErrUnauthenticated)
	}
	if err != nil {
		return nil, err
	}
	if err := active(u); err != nil {
		return nil, err
	}
	return u, nil
}

// active refuses a deactivated account.
func active(u *catalog.User) error {
	if !u.IsActive {
		return errInactive
	}
	return nil
}
