package sqlstore

import (
	"context"
	"fmt"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

type identities struct{ q Q }

var _ store.Identities = identities{}

func (r Repos) Identities() store.Identities { return identities{r.Q} }

func (s identities) Create(ctx context.Context, id *catalog.Identity) error {
	res, err := s.q.exec(ctx, `INSERT INTO identities (issuer, subject, user_id, email, created_at)
		VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`, id.Issuer, id.Subject, id.UserID, id.Email, micros(id.CreatedAt))
	return s.q.inserted("link identity", id.Subject, res, err)
}

const identityCols = `issuer, subject, user_id, email, created_at`

func (s identities) scan(row Row, what, key string) (*catalog.Identity, error) {
	var id catalog.Identity
	var created int64
	if err := row.Scan(&id.Issuer, &id.Subject, &id.UserID, &id.Email, &created); err != nil {
		return nil, s.q.one(what, key, err)
	}
	id.CreatedAt = fromMicros(created)
	return &id, nil
}

func (s identities) Get(ctx context.Context, issuer, subject string) (*catalog.Identity, error) {
	return s.scan(s.q.queryRow(ctx, `SELECT `+identityCols+` FROM identities
		WHERE issuer = ? AND subject = ?`, issuer, subject), "identity", subject)
}

func (s identities) ForUser(ctx context.Context, issuer, userID string) (*catalog.Identity, error) {
	return s.scan(s.q.queryRow(ctx, `SELECT `+identityCols+` FROM identities
		WHERE user_id = ? AND issuer = ?`, userID, issuer), "identity of user", userID)
}

func (s identities) AddState(ctx context.Context, st *catalog.OIDCState, now time.Time) error {
	if _, err := s.q.exec(ctx, `DELETE FROM oidc_states WHERE expires_at < ?`, micros(now)); err != nil {
		return fmt.Errorf("sweep expired sign-in states: %w", s.q.translate(err))
	}
	res, err := s.q.exec(ctx, `INSERT INTO oidc_states (state_hash, verifier, nonce, redirect_uri,
		created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`, st.StateHash, st.Verifier,
		st.Nonce, st.RedirectURI, micros(st.CreatedAt), micros(st.ExpiresAt))
	return s.q.inserted("add sign-in state", "", res, err)
}

func (s identities) TakeState(ctx context.Context, stateHash []byte) (*catalog.OIDCState, error) {
	var st catalog.OIDCState
	var created, expires int64
	err := s.q.queryRow(ctx, `DELETE FROM oidc_states WHERE state_hash = ?
		RETURNING state_hash, verifier, nonce, redirect_uri, created_at, expires_at`, stateHash).Scan(
		&st.StateHash, &st.Verifier, &st.Nonce, &st.RedirectURI, &created, &expires)
	if err != nil {
		return nil, s.q.one("sign-in state", "", err)
	}
	st.CreatedAt, st.ExpiresAt = fromMicros(created), fromMicros(expires)
	return &st, nil
}
