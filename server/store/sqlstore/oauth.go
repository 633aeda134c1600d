package sqlstore

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

type oauth struct{ q Q }

var _ store.OAuth = oauth{}

func (r Repos) OAuth() store.OAuth { return oauth{r.Q} }

const oauthClientCols = `c.id, c.name, c.secret_hash, c.redirect_uris, c.scopes, c.created_by, c.created_at, c.revoked_at`

func scanOAuthClient(row scanner) (*catalog.OAuthClient, error) {
	var c catalog.OAuthClient
	var uris, scopes string
	var created int64
	var revoked *int64
	if err := row.Scan(&c.ID, &c.Name, &c.SecretHash, &uris, &scopes, &c.CreatedBy, &created, &revoked); err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(uris), &c.RedirectURIs); err != nil {
		return nil, fmt.Errorf("oauth client %s redirect uris: %w", c.ID, err)
	}
	if err := json.Unmarshal([]byte(scopes), &c.Scopes); err != nil {
		return nil, fmt.Errorf("oauth client %s scopes: %w", c.ID, err)
	}
	c.CreatedAt, c.RevokedAt = fromMicros(created), fromNullMicros(revoked)
	return &c, nil
}

func (s oauth) CreateClient(ctx context.Context, c *catalog.OAuthClient) error {
	uris, err := json.Marshal(c.RedirectURIs)
	if err != nil {
		return err
	}
	scopes, err := json.Marshal(c.Scopes)
	if err != nil {
		return err
	}
	res, err := s.q.exec(ctx, `INSERT INTO oauth_clients (id, name, secret_hash, redirect_uris, scopes,
		created_by, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
		c.ID, c.Name, c.SecretHash, string(uris), string(scopes), c.CreatedBy, micros(c.CreatedAt), nullMicros(c.RevokedAt))
	return s.q.inserted("create oauth client", c.Name, res, err)
}

func (s oauth) GetClient(ctx context.Context, id string) (*catalog.OAuthClient, error) {
	c, err := scanOAuthClient(s.q.queryRow(ctx, `SELECT `+oauthClientCols+` FROM oauth_clients c
		WHERE c.id = ?`, id))
	return c, s.q.one("oauth client", id, err)
}

func (s oauth) ListClients(ctx context.Context, p query.Page) ([]catalog.OAuthClient, bool, error) {
	lq := listQuery{cols: oauthClientCols, from: "oauth_clients c", idCol: "c.id", desc: true}
	return page(ctx, s.q, lq, p, func(rows scanner) (catalog.OAuthClient, error) {
		c, err := scanOAuthClient(rows)
		if err != nil {
			return catalog.OAuthClient{}, err
		}
		return *c, nil
	})
}

func (s oauth) RevokeClient(ctx context.Context, id string, t time.Time) error {
	res, err := s.q.exec(ctx, `UPDATE oauth_clients SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?`,
		micros(t), id)
	return s.q.affected("oauth client", id, res, err)
}

func (s oauth) CreateGrant(ctx context.Context, g *catalog.OAuthGrant) error {
	scopes, err := json.Marshal(g.Scopes)
	if err != nil {
		return err
	}
	res, err := s.q.exec(ctx, `INSERT INTO oauth_grants (id, client_id, user_id, scopes, created_at, revoked_at)
		VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`, g.ID, g.ClientID, g.UserID, string(scopes),
		micros(g.CreatedAt), nullMicros(g.RevokedAt))
	return s.q.inserted("create oauth grant", g.ID, res, err)
}

func (s oauth) GetGrant(ctx context.Context, id string) (*catalog.OAuthGrant, error) {
	var g catalog.OAuthGrant
	var scopes string
	var created int64
	var revoked, clientRevoked *int64
	err := s.q.queryRow(ctx, `SELECT g.id, g.client_id, g.user_id, g.scopes, g.created_at, g.revoked_at,
		c.revoked_at FROM oauth_grants g JOIN oauth_clients c ON c.id = g.client_id WHERE g.id = ?`, id).
		Scan(&g.ID, &g.ClientID, &g.UserID, &scopes, &created, &revoked, &clientRevoked)
	if err != nil {
		return nil, s.q.one("oauth grant", id, err)
	}
	if err := json.Unmarshal([]byte(scopes), &g.Scopes); err != nil {
		return nil, fmt.Errorf("oauth grant %s scopes: %w", id, err)
	}
	g.CreatedAt, g.RevokedAt, g.ClientRevokedAt = fromMicros(created), fromNullMicros(revoked), fromNullMicros(clientRevoked)
	return &g, nil
}

func (s oauth) RevokeGrant(ctx context.Context, id string, t time.Time) error {
	res, err := s.q.exec(ctx, `UPDATE oauth_grants SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?`,
		micros(t), id)
	if err := s.q.affected("oauth grant", id, res, err); err != nil {
		return err
	}
	_, err = s.q.exec(ctx, `UPDATE oauth_requests SET active = false WHERE grant_id = ? AND active`, id)
	return s.q.one("deactivate records of grant", id, err)
}

func (s oauth) PutRecord(ctx context.Context, r *store.OAuthRecord) error {
	res, err := s.q.exec(ctx, `INSERT INTO oauth_requests (kind, signature, grant_id, data, active, expires_at)
		VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`, string(r.Kind), r.Signature, r.GrantID, r.Data, r.Active,
		micros(r.ExpiresAt))
	return s.q.inserted("store oauth "+string(r.Kind), r.GrantID, res, err)
}

func (s oauth) GetRecord(ctx context.Context, kind store.OAuthRecordKind, signature string) (*store.OAuthRecord, error) {
	r := store.OAuthRecord{Kind: kind, Signature: signature}
	var expires int64
	err := s.q.queryRow(ctx, `SELECT grant_id, data, active, expires_at FROM oauth_requests
		WHERE kind = ? AND signature = ?`, string(kind), signature).Scan(&r.GrantID, &r.Data, &r.Active, &expires)
	if err != nil {
		return nil, s.q.one("oauth "+string(kind), "by signature", err)
	}
	r.ExpiresAt = fromMicros(expires)
	return &r, nil
}

func (s oauth) DeactivateRecord(ctx context.Context, kind store.OAuthRecordKind, signature string) error {
	res, err := s.q.exec(ctx, `UPDATE oauth_requests SET active = false WHERE kind = ? AND signature = ? AND active`,
		string(kind), signature)
	return s.q.affected("oauth "+string(kind), "by signature", res, err)
}

func (s oauth) DeleteRecord(ctx context.Context, kind store.OAuthRecordKind, signature string) error {
	_, err := s.q.exec(ctx, `DELETE FROM oauth_requests WHERE kind = ? AND signature = ?`, string(kind), signature)
	return s.q.one("delete oauth "+string(kind), "by signature", err)
}
