package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

const (
	issuer        = "photoctl"
	signingKeyKey = "auth.jwt_signing_key"
	// Token type claims: a session token must never pass as an OAuth token.
	typSession = "session"
	typOAuth   = "oauth"
)

// claims is the JWT body of first-party session and OAuth access tokens.
type claims struct {
	Type      string   `json:"typ"`
	SessionID string   `json:"sid,omitempty"`
	Scopes    []string `json:"scp,omitempty"`
	// ClientID and GrantID name the OAuth client and grant of an OAuth token.
	ClientID string `json:"client_id,omitempty"`
	GrantID  string `json:"gid,omitempty"`
	jwt.RegisteredClaims
}

// loadSigningKey returns the HMAC key shared by every process on this
// database, creating it on first use.
func loadSigningKey(ctx context.Context, st store.Store) ([]byte, error) {
	if k, err := st.Read().Settings().Get(ctx, signingKeyKey); err == nil {
		return k, nil
	} else if !errors.Is(err, catalog.ErrNotFound) {
		return nil, err
	}
	fresh := make([]byte, 32)
	if _, err := rand.Read(fresh); err != nil {
		return nil, fmt.Errorf("generate signing key: %w", err)
	}
	var key []byte
	err := st.InTx(ctx, func(r store.Repos) error {
		var err error
		key, err = r.Settings().PutIfAbsent(ctx, signingKeyKey, fresh)
		return err
	})
	return key, err
}

func (s *Service) sign(c claims) (string, error) {
	return jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString(s.key)
}

// parse verifies signature, algorithm, issuer and expiry against the
// service clock. Any failure is ErrUnauthenticated.
func (s *Service) parse(token string) (*claims, error) {
	var c claims
	_, err := jwt.ParseWithClaims(token, &c, func(*jwt.Token) (any, error) { return s.key, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithIssuer(issuer),
		jwt.WithExpirationRequired(),
		jwt.WithTimeFunc(s.now),
	)
	if err != nil {
		if errors.Is(err, jwt.ErrTokenExpired) {
			return nil, fmt.Errorf("access token expired: %w", catalog.ErrUnauthenticated)
		}
		return nil, fmt.Errorf("invalid access token: %w", catalog.ErrUnauthenticated)
	}
	return &c, nil
}

// newSecret returns prefix + 32 random bytes in URL-safe base64, and the
// SHA-256 of the whole string, which is all that is stored. The secrets are
// random, so a fast hash is safe and an index finds them.
func newSecret(prefix string) (secret string, hash []byte, err error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", nil, fmt.Errorf("generate secret: %w", err)
	}
	secret = prefix + base64.RawURLEncoding.EncodeToString(b)
	return secret, hashSecret(secret), nil
}

func hashSecret(secret string) []byte {
	h := sha256.Sum256([]byte(secret))
	return h[:]
}

// Tokens is what a sign-in or refresh returns.
type Tokens struct {
	AccessToken  string
	RefreshToken string
	ExpiresIn    time.Duration
}
