package sqlstore

import (
	"context"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

type sessions struct{ q Q }

func (r Repos) Sessions() store.Sessions { return sessions{r.Q} }

var _ store.Sessions = sessions{}

func (s sessions) Create(ctx context.Context, se *catalog.Session) error {
	res, err := s.q.exec(ctx, `INSERT INTO sessions (id, user_id, created_at, expires_at, revoked_at)
		VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`, se.ID, se.UserID, micros(se.CreatedAt),
		micros(se.ExpiresAt), nullMicros(se.RevokedAt))
	return s.q.inserted("create session", se.ID, res, err)
}

// sessionCols are the sessions columns sessionRow scans.
const sessionCols = `s.id, s.user_id, s.created_at, s.expires_at, s.revoked_at`

// sessionRow is a sessions row being scanned.
type sessionRow struct {
	se               catalog.Session
	created, expires int64
	revoked          *int64
}

func (r *sessionRow) dests() []any {
	return []any{&r.se.ID, &r.se.UserID, &r.created, &r.expires, &r.revoked}
}

func (r *sessionRow) session() *catalog.Session {
	r.se.CreatedAt, r.se.ExpiresAt, r.se.RevokedAt = fromMicros(r.created), fromMicros(r.expires), fromNullMicros(r.revoked)
	return &r.se
}

func (s sessions) Get(ctx context.Context, id string) (*catalog.Session, error) {
	var r sessionRow
	err := s.q.queryRow(ctx, `SELECT `+sessionCols+` FROM sessions s WHERE s.id = ?`, id).Scan(r.dests()...)
	if err != nil {
		return nil, s.q.one("session", id, err)
	}
	return r.session(), nil
}

func (s sessions) GetWithUser(ctx context.Context, id string) (*catalog.Session, *catalog.User, error) {
	var sr sessionRow
	var ur userRow
	err := s.q.queryRow(ctx, `SELECT `+sessionCols+`, `+ownerCols+` FROM sessions s
		JOIN users u ON u.id = s.user_id WHERE s.id = ?`, id).Scan(append(sr.dests(), ur.dests()...)...)
	if err != nil {
		return nil, nil, s.q.one("session", id, err)
	}
	return sr.session(), ur.user(), nil
}

func (s sessions) Revoke(ctx context.Context, id string, t time.Time) error {
	_, err := s.q.exec(ctx, `UPDATE sessions SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?`,
		micros(t), id)
	if err != nil {
		return s.q.one("revoke session", id, err)
	}
	_, err = s.q.exec(ctx, `UPDATE refresh_tokens SET rotated_at = COALESCE(rotated_at, ?)
		WHERE session_id = ?`, micros(t), id)
	return s.q.one("revoke refresh tokens of", id, err)
}

func (s sessions) AddRefreshToken(ctx context.Context, rt *catalog.RefreshToken) error {
	res, err := s.q.exec(ctx, `INSERT INTO refresh_tokens (id, session_id, user_id, token_hash,
		created_at, expires_at, rotated_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
		rt.ID, rt.SessionID, rt.UserID, rt.Hash, micros(rt.CreatedAt), micros(rt.ExpiresAt), nullMicros(rt.RotatedAt))
	return s.q.inserted("create refresh token", rt.ID, res, err)
}

func (s sessions) RefreshTokenByHash(ctx context.Context, hash []byte) (*catalog.RefreshToken, error) {
	var rt catalog.RefreshToken
	var created, expires int64
	var rotated *int64
	err := s.q.queryRow(ctx, `SELECT id, session_id, user_id, token_hash, created_at, expires_at,
		rotated_at FROM refresh_tokens WHERE token_hash = ?`, hash).Scan(&rt.ID, &rt.SessionID, &rt.UserID,
		&rt.Hash, &created, &expires, &rotated)
	if err != nil {
		return nil, s.q.one("refresh token", "by secret", err)
	}
	rt.CreatedAt, rt.ExpiresAt, rt.RotatedAt = fromMicros(created), fromMicros(expires), fromNullMicros(rotated)
	return &rt, nil
}

func (s sessions) MarkRotated(ctx context.Context, id string, t time.Time) error {
	res, err := s.q.exec(ctx, `UPDATE refresh_tokens SET rotated_at = ? WHERE id = ?
		AND rotated_at IS NULL`, micros(t), id)
	if err != nil {
		return s.q.one("rotate refresh token", id, err)
	}
	if res.RowsAffected() == 0 {
		return s.q.one("rotate refresh token", id, catalog.ErrConflict)
	}
	return nil
}

func (s sessions) RevokeUser(ctx context.Context, userID, keep string, t time.Time) error {
	_, err := s.q.exec(ctx, `UPDATE refresh_tokens SET rotated_at = ? WHERE rotated_at IS NULL
		AND user_id = ? AND session_id <> ?`, micros(t), userID, keep)
	if err != nil {
		return s.q.one("revoke refresh tokens of", userID, err)
	}
	_, err = s.q.exec(ctx, `UPDATE sessions SET revoked_at = ? WHERE revoked_at IS NULL
		AND user_id = ? AND id <> ?`, micros(t), userID, keep)
	return s.q.one("revoke sessions of", userID, err)
}
