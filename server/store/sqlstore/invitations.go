package sqlstore

import (
	"context"
	"errors"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

type invitations struct{ q Q }

func (r Repos) Invitations() store.Invitations { return invitations{r.Q} }

var _ store.Invitations = invitations{}

// invitationCols selects an invitation with its creator's name and its
// joiner count (a count over the invitation_joins primary key).
const invitationCols = `i.id, i.library_id, i.created_by, u.first_name, u.last_name, i.token_hash, i.role,
	i.expires_at, i.max_joiners, i.disabled_at, i.created_at, i.updated_at,
	(SELECT count(*) FROM invitation_joins j WHERE j.invitation_id = i.id)`

const invitationFrom = `invitations i JOIN users u ON u.id = i.created_by`

func scanInvitation(row scanner) (*catalog.Invitation, error) {
	var inv catalog.Invitation
	var creator catalog.User
	var role string
	var expires, created, updated int64
	var disabled *int64
	var joiners int64
	err := row.Scan(&inv.ID, &inv.LibraryID, &creator.ID, &creator.FirstName, &creator.LastName, &inv.TokenHash,
		&role, &expires, &inv.MaxJoiners, &disabled, &created, &updated, &joiners)
	if err != nil {
		return nil, err
	}
	inv.JoinerCount = int(joiners)
	inv.CreatedBy, inv.Role = creator.Summary(), catalog.Role(role)
	inv.ExpiresAt, inv.DisabledAt = fromMicros(expires), fromNullMicros(disabled)
	inv.CreatedAt, inv.UpdatedAt = fromMicros(created), fromMicros(updated)
	return &inv, nil
}

func (s invitations) Create(ctx context.Context, inv *catalog.Invitation) error {
	res, err := s.q.exec(ctx, `INSERT INTO invitations (id, library_id, created_by, token_hash, role,
		expires_at, max_joiners, disabled_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT DO NOTHING`,
		inv.ID, inv.LibraryID, inv.CreatedBy.ID, inv.TokenHash, string(inv.Role), micros(inv.ExpiresAt),
		inv.MaxJoiners, nullMicros(inv.DisabledAt), micros(inv.CreatedAt), micros(inv.UpdatedAt))
	return s.q.inserted("create invitation", inv.ID, res, err)
}

func (s invitations) Get(ctx context.Context, id string) (*catalog.Invitation, error) {
	inv, err := scanInvitation(s.q.queryRow(ctx, `SELECT `+invitationCols+` FROM `+invitationFrom+`
		WHERE i.id = ?`, id))
	return inv, s.q.one("invitation", id, err)
}

func (s invitations) GetByTokenHash(ctx context.Context, hash []byte) (*catalog.Invitation, error) {
	inv, err := scanInvitation(s.q.queryRow(ctx, `SELECT `+invitationCols+` FROM `+invitationFrom+`
		WHERE i.token_hash = ?`, hash))
	return inv, s.q.one("invitation with token", "", err)
}

func (s invitations) List(ctx context.Context, libraryID string, p query.Page) ([]catalog.Invitation, bool, error) {
	lq := listQuery{
		cols:  invitationCols,
		from:  invitationFrom,
		where: []string{"i.library_id = ?"},
		args:  []any{libraryID},
		idCol: "i.id",
		desc:  true,
	}
	return page(ctx, s.q, lq, p, func(rows scanner) (catalog.Invitation, error) {
		inv, err := scanInvitation(rows)
		if err != nil {
			return catalog.Invitation{}, err
		}
		return *inv, nil
	})
}

func (s invitations) Disable(ctx context.Context, id string, t time.Time) error {
	res, err := s.q.exec(ctx, `UPDATE invitations SET disabled_at = ?, updated_at = ?
		WHERE id = ? AND disabled_at IS NULL`, micros(t), micros(t), id)
	if err := s.q.affected("invitation", id, res, err); !errors.Is(err, catalog.ErrNotFound) {
		return err
	}
	// Nothing changed: already disabled, or no such invitation.
	var found int
	err = s.q.queryRow(ctx, `SELECT 1 FROM invitations WHERE id = ?`, id).Scan(&found)
	return s.q.one("invitation", id, err)
}

func (s invitations) Redeemed(ctx context.Context, id, userID string) (bool, error) {
	var n int
	err := s.q.queryRow(ctx, `SELECT count(*) FROM invitation_joins WHERE invitation_id = ? AND user_id = ?`,
		id, userID).Scan(&n)
	return n > 0, s.q.translate(err)
}

func (s invitations) Redeem(ctx context.Context, id, userID string, t time.Time) error {
	res, err := s.q.exec(ctx, `INSERT INTO invitation_joins (invitation_id, user_id, created_at)
		VALUES (?, ?, ?) ON CONFLICT DO NOTHING`, id, userID, micros(t))
	return s.q.inserted("redeem invitation", id, res, err)
}
