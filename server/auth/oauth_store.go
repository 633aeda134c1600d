package auth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/ory/fosite"
	fositeoauth2 "github.com/ory/fosite/handler/oauth2"
	"github.com/ory/fosite/handler/pkce"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// fositeStore is fosite's storage over store.OAuth. Codes, PKCE challenges
// and refresh tokens are records keyed by the HMAC signature of the token;
// access tokens are JWTs and are not stored. A grant is fosite's request id:
// revoking "the tokens of a request" revokes the grant.
type fositeStore struct{ svc *Service }

var (
	_ fosite.Storage                      = (*fositeStore)(nil)
	_ fositeoauth2.CoreStorage            = (*fositeStore)(nil)
	_ fositeoauth2.TokenRevocationStorage = (*fositeStore)(nil)
	_ pkce.PKCERequestStorage             = (*fositeStore)(nil)
)

// storedRequest is what a record keeps of a fosite request.
type storedRequest struct {
	ID          string                 `json:"id"`
	RequestedAt time.Time              `json:"requested_at"`
	ClientID    string                 `json:"client_id"`
	Requested   []string               `json:"requested_scopes"`
	Granted     []string               `json:"granted_scopes"`
	Form        url.Values             `json:"form"`
	Session     *fosite.DefaultSession `json:"session"`
}

// fositeClient adapts a registered client; a public client (no secret)
// authenticates with PKCE alone.
func fositeClient(c *catalog.OAuthClient) fosite.Client {
	scopes := make([]string, len(c.Scopes))
	for i, a := range c.Scopes {
		scopes[i] = string(a)
	}
	return &fosite.DefaultClient{ID: c.ID, Secret: c.SecretHash, RedirectURIs: c.RedirectURIs,
		GrantTypes: []string{"authorization_code", "refresh_token"}, ResponseTypes: []string{"code"},
		Scopes: scopes, Public: c.Public()}
}

func (f *fositeStore) GetClient(ctx context.Context, id string) (fosite.Client, error) {
	c, err := f.svc.store.Read().OAuth().GetClient(ctx, id)
	if errors.Is(err, catalog.ErrNotFound) || (err == nil && c.RevokedAt != nil) {
		return nil, fosite.ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	return fositeClient(c), nil
}

// Client assertions (private_key_jwt) are not offered.
func (f *fositeStore) ClientAssertionJWTValid(context.Context, string) error { return nil }
func (f *fositeStore) SetClientAssertionJWT(context.Context, string, time.Time) error {
	return nil
}

func (f *fositeStore) encode(r fosite.Requester) ([]byte, error) {
	sess, ok := r.GetSession().(*fosite.DefaultSession)
	if !ok {
		return nil, fmt.Errorf("oauth session of type %T", r.GetSession())
	}
	return json.Marshal(storedRequest{ID: r.GetID(), RequestedAt: r.GetRequestedAt(), ClientID: r.GetClient().GetID(),
		Requested: r.GetRequestedScopes(), Granted: r.GetGrantedScopes(), Form: r.GetRequestForm(), Session: sess})
}

func (f *fositeStore) decode(ctx context.Context, data []byte) (*fosite.Request, error) {
	var sr storedRequest
	if err := json.Unmarshal(data, &sr); err != nil {
		return nil, fmt.Errorf("decode oauth request: %w", err)
	}
	c, err := f.svc.store.Read().OAuth().GetClient(ctx, sr.ClientID)
	if err != nil {
		return nil, err
	}
	if sr.Session == nil {
		sr.Session = &fosite.DefaultSession{}
	}
	return &fosite.Request{ID: sr.ID, RequestedAt: sr.RequestedAt, Client: fositeClient(c),
		RequestedScope: sr.Requested, GrantedScope: sr.Granted, Form: sr.Form, Session: sr.Session,
		RequestedAudience: fosite.Arguments{}, GrantedAudience: fosite.Arguments{}}, nil
}

// put stores a record of kind for r, expiring when the session says.
func (f *fositeStore) put(ctx context.Context, kind store.OAuthRecordKind, sig string, r fosite.Requester, exp fosite.TokenType) error {
	data, err := f.encode(r)
	if err != nil {
		return err
	}
	expires := r.GetSession().GetExpiresAt(exp)
	if expires.IsZero() {
		expires = f.svc.now().Add(f.svc.cfg.RefreshTTL)
	}
	rec := &store.OAuthRecord{Kind: kind, Signature: sig, GrantID: r.GetID(), Data: data, Active: true, ExpiresAt: expires}
	return f.svc.store.InTx(ctx, func(rs store.Repos) error { return rs.OAuth().PutRecord(ctx, rec) })
}

// get returns the request of a record and whether the record is active.
func (f *fositeStore) get(ctx context.Context, kind store.OAuthRecordKind, sig string) (*fosite.Request, bool, error) {
	rec, err := f.svc.store.Read().OAuth().GetRecord(ctx, kind, sig)
	if errors.Is(err, catalog.ErrNotFound) {
		return nil, false, fosite.ErrNotFound
	}
	if err != nil {
		return nil, false, err
	}
	req, err := f.decode(ctx, rec.Data)
	if err != nil {
		return nil, false, err
	}
	return req, rec.Active, nil
}

func (f *fositeStore) deactivate(ctx context.Context, kind store.OAuthRecordKind, sig string) error {
	err := f.svc.store.InTx(ctx, func(r store.Repos) error { return r.OAuth().DeactivateRecord(ctx, kind, sig) })
	if errors.Is(err, catalog.ErrNotFound) {
		return fosite.ErrInactiveToken // a racing request used it first
	}
	return err
}

func (f *fositeStore) delete(ctx context.Context, kind store.OAuthRecordKind, sig string) error {
	return f.svc.store.InTx(ctx, func(r store.Repos) error { return r.OAuth().DeleteRecord(ctx, kind, sig) })
}

// CreateAuthorizeCodeSession records the user's consent (the grant) and
// its code in one transaction.
func (f *fositeStore) CreateAuthorizeCodeSession(ctx context.Context, code string, r fosite.Requester) error {
	data, err := f.encode(r)
	if err != nil {
		return err
	}
	now := f.svc.now()
	g := &catalog.OAuthGrant{ID: r.GetID(), ClientID: r.GetClient().GetID(), UserID: r.GetSession().GetSubject(), CreatedAt: now}
	for _, sc := range r.GetGrantedScopes() {
		g.Scopes = append(g.Scopes, catalog.Action(sc))
	}
	rec := &store.OAuthRecord{Kind: store.OAuthCode, Signature: code, GrantID: g.ID, Data: data, Active: true,
		ExpiresAt: r.GetSession().GetExpiresAt(fosite.AuthorizeCode)}
	return f.svc.store.InTx(ctx, func(rs store.Repos) error {
		if err := rs.OAuth().CreateGrant(ctx, g); err != nil {
			return err
		}
		return rs.OAuth().PutRecord(ctx, rec)
	})
}

func (f *fositeStore) GetAuthorizeCodeSession(ctx context.Context, code string, _ fosite.Session) (fosite.Requester, error) {
	req, active, err := f.get(ctx, store.OAuthCode, code)
	if err != nil {
		return nil, err
	}
	if !active {
		return req, fosite.ErrInvalidatedAuthorizeCode
	}
	return req, nil
}

func (f *fositeStore) InvalidateAuthorizeCodeSession(ctx context.Context, code string) error {
	return f.deactivate(ctx, store.OAuthCode, code)
}

func (f *fositeStore) CreatePKCERequestSession(ctx context.Context, sig string, r fosite.Requester) error {
	return f.put(ctx, store.OAuthPKCE, sig, r, fosite.AuthorizeCode)
}

func (f *fositeStore) GetPKCERequestSession(ctx context.Context, sig string, _ fosite.Session) (fosite.Requester, error) {
	req, _, err := f.get(ctx, store.OAuthPKCE, sig)
	if err != nil {
		return nil, err
	}
	return req, nil
}

func (f *fositeStore) DeletePKCERequestSession(ctx context.Context, sig string) error {
	return f.delete(ctx, store.OAuthPKCE, sig)
}

// Access tokens are self-contained JWTs checked against their grant.
func (f *fositeStore) CreateAccessTokenSession(context.Context, string, fosite.Requester) error {
	return nil
}

func (f *fositeStore) GetAccessTokenSession(context.Context, string, fosite.Session) (fosite.Requester, error) {
	return nil, fosite.ErrNotFound
}

func (f *fositeStore) DeleteAccessTokenSession(context.Context, string) error { return nil }

func (f *fositeStore) CreateRefreshTokenSession(ctx context.Context, sig, _ string, r fosite.Requester) error {
	return f.put(ctx, store.OAuthRefresh, sig, r, fosite.RefreshToken)
}

// GetRefreshTokenSession returns ErrInactiveToken, with the request, for a
// rotated token (or one of a revoked grant): fosite then revokes the whole
// grant, the reuse rule of decisions "Authentication". A deactivated user's
// tokens do not refresh.
func (f *fositeStore) GetRefreshTokenSession(ctx context.Context, sig string, _ fosite.Session) (fosite.Requester, error) {
	req, active, err := f.get(ctx, store.OAuthRefresh, sig)
	if err != nil {
		return nil, err
	}
	if !active {
		return req, fosite.ErrInactiveToken
	}
	if _, err := f.svc.activeUser(ctx, req.GetSession().GetSubject()); errors.Is(err, catalog.ErrUnauthenticated) {
		return nil, fosite.ErrNotFound
	} else if err != nil {
		return nil, err
	}
	return req, nil
}

func (f *fositeStore) DeleteRefreshTokenSession(ctx context.Context, sig string) error {
	// Kept inactive rather than deleted, so a later replay is still seen.
	err := f.deactivate(ctx, store.OAuthRefresh, sig)
	if errors.Is(err, fosite.ErrInactiveToken) {
		return nil
	}
	return err
}

func (f *fositeStore) RotateRefreshToken(ctx context.Context, _ string, sig string) error {
	return f.deactivate(ctx, store.OAuthRefresh, sig)
}

func (f *fositeStore) RevokeRefreshToken(ctx context.Context, grantID string) error {
	return f.revokeGrant(ctx, grantID)
}

func (f *fositeStore) RevokeAccessToken(ctx context.Context, grantID string) error {
	return f.revokeGrant(ctx, grantID)
}

func (f *fositeStore) revokeGrant(ctx context.Context, grantID string) error {
	err := f.svc.store.InTx(ctx, func(r store.Repos) error { return r.OAuth().RevokeGrant(ctx, grantID, f.svc.now()) })
	if errors.Is(err, catalog.ErrNotFound) {
		return fosite.ErrNotFound
	}
	return err
}
