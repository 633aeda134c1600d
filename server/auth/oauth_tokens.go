package auth

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/ory/fosite"

	"github.com/photoctl/photoctl/server/catalog"
)

var errGrantEnded = fmt.Errorf("OAuth access was revoked: %w", catalog.ErrUnauthenticated)

// authenticateOAuth accepts an OAuth access token whose grant and client are
// still live (one indexed lookup per request) and whose user is active.
func (s *Service) authenticateOAuth(ctx context.Context, c *claims) (*catalog.Principal, error) {
	g, err := s.store.Read().OAuth().GetGrant(ctx, c.GrantID)
	if errors.Is(err, catalog.ErrNotFound) {
		return nil, errGrantEnded
	}
	if err != nil {
		return nil, err
	}
	if !g.Live() || g.UserID != c.Subject || g.ClientID != c.ClientID {
		return nil, errGrantEnded
	}
	u, err := s.activeUser(ctx, c.Subject)
	if err != nil {
		return nil, err
	}
	scope := catalog.Scope{}
	for _, sc := range c.Scopes {
		scope.Actions = append(scope.Actions, catalog.Action(sc))
	}
	return &catalog.Principal{User: u, Kind: catalog.CredOAuth, Scope: &scope, CredentialID: g.ID}, nil
}

// jwtAccessStrategy issues OAuth access tokens as HS256 JWTs with the
// service's signing key: typ "oauth", sub the user, client_id, gid (the
// grant, checked on every request) and scp (the granted actions). Nothing
// about an access token is stored; its fosite "signature" is the JWT's.
type jwtAccessStrategy struct {
	svc *Service
	ttl time.Duration
}

func (j *jwtAccessStrategy) AccessTokenSignature(_ context.Context, token string) string {
	if i := strings.LastIndexByte(token, '.'); i >= 0 {
		return token[i+1:]
	}
	return ""
}

func (j *jwtAccessStrategy) GenerateAccessToken(ctx context.Context, r fosite.Requester) (string, string, error) {
	now := j.svc.now()
	sub := ""
	if sess := r.GetSession(); sess != nil {
		sub = sess.GetSubject()
	}
	if sub == "" {
		return "", "", errors.New("oauth request has no subject")
	}
	token, err := j.svc.sign(claims{Type: typOAuth, Scopes: r.GetGrantedScopes(), ClientID: r.GetClient().GetID(),
		GrantID: r.GetID(), RegisteredClaims: jwt.RegisteredClaims{
			Issuer: issuer, Subject: sub, IssuedAt: jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(now.Add(j.ttl)), ID: catalog.NewID("", now),
		}})
	if err != nil {
		return "", "", fmt.Errorf("sign oauth access token: %w", err)
	}
	return token, j.AccessTokenSignature(ctx, token), nil
}

func (j *jwtAccessStrategy) ValidateAccessToken(_ context.Context, _ fosite.Requester, token string) error {
	c, err := j.svc.parse(token)
	if err != nil {
		return fosite.ErrTokenExpired.WithWrap(err)
	}
	if c.Type != typOAuth {
		return fosite.ErrTokenSignatureMismatch
	}
	return nil
}
