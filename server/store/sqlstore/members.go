package sqlstore

import (
	"context"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
)

// memberCols selects a current member with what makes their public name
// (catalog.MemberSummary).
const memberCols = `m.user_id, u.first_name, u.last_name, u.email, m.role, m.invitation_id, m.created_at,
	COALESCE(m.updated_at, m.created_at)`

const memberFrom = `library_members m JOIN users u ON u.id = m.user_id`

func scanMember(row scanner) (*catalog.Member, error) {
	var u catalog.User
	var role string
	var joined, updated int64
	m := &catalog.Member{}
	if err := row.Scan(&u.ID, &u.FirstName, &u.LastName, &u.Email, &role, &m.InvitationID, &joined, &updated); err != nil {
		return nil, err
	}
	m.User, m.Role, m.JoinedAt, m.UpdatedAt = catalog.MemberSummary(&u), catalog.Role(role), fromMicros(joined), fromMicros(updated)
	return m, nil
}

func (s libraries) Members(ctx context.Context, libraryID string, p query.Page) ([]catalog.Member, bool, error) {
	lq := listQuery{
		cols:  memberCols,
		from:  memberFrom,
		where: []string{"m.library_id = ?"},
		args:  []any{libraryID},
		sort:  "m.created_at",
		idCol: "m.user_id",
		desc:  true,
	}
	return page(ctx, s.q, lq, p, func(rows scanner) (catalog.Member, error) {
		m, err := scanMember(rows)
		if err != nil {
			return catalog.Member{}, err
		}
		return *m, nil
	})
}

func (s libraries) Member(ctx context.Context, libraryID, userID string) (*catalog.Member, error) {
	m, err := scanMember(s.q.queryRow(ctx, `SELECT `+memberCols+` FROM `+memberFrom+`
		WHERE m.library_id = ? AND m.user_id = ?`, libraryID, userID))
	return m, s.q.one("member", userID, err)
}

func (s libraries) AddMember(ctx context.Context, libraryID string, m *catalog.Member) error {
	res, err := s.q.exec(ctx, `INSERT INTO library_members (library_id, user_id, role, invitation_id,
		created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`, libraryID, m.User.ID,
		string(m.Role), m.InvitationID, micros(m.JoinedAt), micros(m.UpdatedAt))
	return s.q.inserted("add member", m.User.ID, res, err)
}

func (s libraries) SetMemberRole(ctx context.Context, libraryID, userID string, role catalog.Role, t time.Time) error {
	res, err := s.q.exec(ctx, `UPDATE library_members SET role = ?, updated_at = ?
		WHERE library_id = ? AND user_id = ?`, string(role), micros(t), libraryID, userID)
	return s.q.affected("member", userID, res, err)
}

func (s libraries) DeleteMember(ctx context.Context, libraryID, userID string) error {
	res, err := s.q.exec(ctx, `DELETE FROM library_members WHERE library_id = ? AND user_id = ?`,
		libraryID, userID)
	return s.q.affected("member", userID, res, err)
}

func (s libraries) RecordRemoval(ctx context.Context, libraryID, userID string, t time.Time) error {
	_, err := s.q.exec(ctx, `INSERT INTO library_removals (library_id, user_id, removed_at)
		VALUES (?, ?, ?) ON CONFLICT (library_id, user_id) DO UPDATE SET removed_at = excluded.removed_at`,
		libraryID, userID, micros(t))
	return s.q.one("record removal of", userID, err)
}

func (s libraries) RemovedAt(ctx context.Context, libraryID, userID string) (*time.Time, error) {
	var at int64
	err := s.q.queryRow(ctx, `SELECT removed_at FROM library_removals WHERE library_id = ? AND user_id = ?`,
		libraryID, userID).Scan(&at)
	if isNoRows(err) {
		return nil, nil
	}
	if err != nil {
		return nil, s.q.translate(err)
	}
	t := fromMicros(at)
	return &t, nil
}
