package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

type libraries struct{ q querier }

func (r repos) Libraries() store.Libraries { return libraries{r.q} }

var _ store.Libraries = libraries{}

const libraryCols = `l.id, l.name, l.owner_id, l.trashed_at, l.created_at, l.updated_at`

func scanLibrary(row interface{ Scan(...any) error }, extra ...any) (*catalog.Library, error) {
	var l catalog.Library
	var trashed sql.NullInt64
	var created, updated int64
	dest := append([]any{&l.ID, &l.Name, &l.OwnerID, &trashed, &created, &updated}, extra...)
	if err := row.Scan(dest...); err != nil {
		return nil, err
	}
	l.TrashedAt = fromNullMicros(trashed)
	l.CreatedAt, l.UpdatedAt = fromMicros(created), fromMicros(updated)
	return &l, nil
}

func (s libraries) Create(ctx context.Context, l *catalog.Library) error {
	_, err := s.q.ExecContext(ctx, `INSERT INTO libraries (id, name, name_key, owner_id, trashed_at,
		created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		l.ID, l.Name, catalog.NameKey(l.Name), l.OwnerID, nullMicros(l.TrashedAt),
		micros(l.CreatedAt), micros(l.UpdatedAt))
	if err != nil {
		return one("create library", l.Name, err)
	}
	_, err = s.q.ExecContext(ctx, `INSERT INTO library_members (library_id, user_id, role, created_at)
		VALUES (?, ?, 'owner', ?)`, l.ID, l.OwnerID, micros(l.CreatedAt))
	return one("add library owner", l.ID, err)
}

func (s libraries) Get(ctx context.Context, id string) (*catalog.Library, error) {
	l, err := scanLibrary(s.q.QueryRowContext(ctx, `SELECT `+libraryCols+` FROM libraries l WHERE l.id = ?`, id))
	return l, one("library", id, err)
}

func (s libraries) Update(ctx context.Context, l *catalog.Library) error {
	res, err := s.q.ExecContext(ctx, `UPDATE libraries SET name = ?, name_key = ?, trashed_at = ?,
		updated_at = ? WHERE id = ?`, l.Name, catalog.NameKey(l.Name), nullMicros(l.TrashedAt),
		micros(l.UpdatedAt), l.ID)
	return affected("library", l.ID, res, err)
}

func (s libraries) Membership(ctx context.Context, libraryID, userID string) (*catalog.Membership, error) {
	var role string
	l, err := scanLibrary(s.q.QueryRowContext(ctx, `SELECT `+libraryCols+`, m.role
		FROM library_members m JOIN libraries l ON l.id = m.library_id
		WHERE m.library_id = ? AND m.user_id = ?`, libraryID, userID), &role)
	if err != nil {
		return nil, one("library", libraryID, err)
	}
	return &catalog.Membership{Library: *l, Role: catalog.Role(role)}, nil
}

func (s libraries) ListForUser(ctx context.Context, f store.LibraryFilter, p store.Page) ([]catalog.Membership, bool, error) {
	q := listQuery{
		cols:  libraryCols + `, m.role`,
		from:  `library_members m JOIN libraries l ON l.id = m.library_id`,
		where: []string{"m.user_id = ?"},
		args:  []any{f.UserID},
		idCol: "m.library_id",
		desc:  true,
	}
	if f.IDs != nil {
		q.where = append(q.where, "m.library_id IN (SELECT value FROM json_each(?))")
		q.args = append(q.args, jsonStrings(f.IDs))
	}
	switch {
	case f.OnlyTrashed:
		q.where = append(q.where, "l.trashed_at IS NOT NULL")
	case !f.IncludeTrashed:
		q.where = append(q.where, "l.trashed_at IS NULL")
	}
	return page(ctx, s.q, q, p, scanMembership)
}

// scanMembership reads a row of libraryCols and m.role.
func scanMembership(row *sql.Rows) (catalog.Membership, error) {
	var role string
	l, err := scanLibrary(row, &role)
	if err != nil {
		return catalog.Membership{}, err
	}
	return catalog.Membership{Library: *l, Role: catalog.Role(role)}, nil
}

func (s libraries) LiveMemberships(ctx context.Context, userID string) ([]catalog.Membership, error) {
	return queryAll(ctx, s.q, scanMembership, `SELECT `+libraryCols+`, m.role
		FROM library_members m JOIN libraries l ON l.id = m.library_id
		WHERE m.user_id = ? AND l.trashed_at IS NULL ORDER BY m.library_id`, userID)
}

func (s libraries) FindOwnedByName(ctx context.Context, ownerID, nameKey string) (*catalog.Library, error) {
	l, err := scanLibrary(s.q.QueryRowContext(ctx, `SELECT `+libraryCols+` FROM libraries l
		WHERE l.owner_id = ? AND l.name_key = ?`, ownerID, nameKey))
	return l, one("library named", nameKey, err)
}

func (s libraries) CountLiveOwned(ctx context.Context, ownerID string) (int, error) {
	var n int
	err := s.q.QueryRowContext(ctx, `SELECT count(*) FROM libraries WHERE owner_id = ?
		AND trashed_at IS NULL`, ownerID).Scan(&n)
	return n, translate(err)
}

// memberCols selects a current member with what makes their public name
// (catalog.MemberSummary).
const memberCols = `m.user_id, u.first_name, u.last_name, u.email, m.role, m.invitation_id, m.created_at,
	COALESCE(m.updated_at, m.created_at)`

const memberFrom = `library_members m JOIN users u ON u.id = m.user_id`

func scanMember(row interface{ Scan(...any) error }) (*catalog.Member, error) {
	var u catalog.User
	var role string
	var inv sql.NullString
	var joined, updated int64
	if err := row.Scan(&u.ID, &u.FirstName, &u.LastName, &u.Email, &role, &inv, &joined, &updated); err != nil {
		return nil, err
	}
	m := &catalog.Member{User: catalog.MemberSummary(&u), Role: catalog.Role(role), JoinedAt: fromMicros(joined),
		UpdatedAt: fromMicros(updated)}
	if inv.Valid {
		m.InvitationID = &inv.String
	}
	return m, nil
}

func (s libraries) Members(ctx context.Context, libraryID string, p store.Page) ([]catalog.Member, bool, error) {
	q := listQuery{
		cols:  memberCols,
		from:  memberFrom,
		where: []string{"m.library_id = ?"},
		args:  []any{libraryID},
		sort:  "m.created_at",
		idCol: "m.user_id",
		desc:  true,
	}
	return page(ctx, s.q, q, p, func(rows *sql.Rows) (catalog.Member, error) {
		m, err := scanMember(rows)
		if err != nil {
			return catalog.Member{}, err
		}
		return *m, nil
	})
}

func (s libraries) Member(ctx context.Context, libraryID, userID string) (*catalog.Member, error) {
	m, err := scanMember(s.q.QueryRowContext(ctx, `SELECT `+memberCols+` FROM `+memberFrom+`
		WHERE m.library_id = ? AND m.user_id = ?`, libraryID, userID))
	return m, one("member", userID, err)
}

func (s libraries) AddMember(ctx context.Context, libraryID string, m *catalog.Member) error {
	_, err := s.q.ExecContext(ctx, `INSERT INTO library_members (library_id, user_id, role, invitation_id,
		created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)`, libraryID, m.User.ID, string(m.Role), m.InvitationID,
		micros(m.JoinedAt), micros(m.UpdatedAt))
	return one("add member", m.User.ID, err)
}

func (s libraries) SetMemberRole(ctx context.Context, libraryID, userID string, role catalog.Role, t time.Time) error {
	res, err := s.q.ExecContext(ctx, `UPDATE library_members SET role = ?, updated_at = ?
		WHERE library_id = ? AND user_id = ?`, string(role), micros(t), libraryID, userID)
	return affected("member", userID, res, err)
}

func (s libraries) DeleteMember(ctx context.Context, libraryID, userID string) error {
	res, err := s.q.ExecContext(ctx, `DELETE FROM library_members WHERE library_id = ? AND user_id = ?`,
		libraryID, userID)
	return affected("member", userID, res, err)
}

func (s libraries) RecordRemoval(ctx context.Context, libraryID, userID string, t time.Time) error {
	_, err := s.q.ExecContext(ctx, `INSERT INTO library_removals (library_id, user_id, removed_at)
		VALUES (?, ?, ?) ON CONFLICT (library_id, user_id) DO UPDATE SET removed_at = excluded.removed_at`,
		libraryID, userID, micros(t))
	return one("record removal of", userID, err)
}

func (s libraries) RemovedAt(ctx context.Context, libraryID, userID string) (*time.Time, error) {
	var at int64
	err := s.q.QueryRowContext(ctx, `SELECT removed_at FROM library_removals WHERE library_id = ? AND user_id = ?`,
		libraryID, userID).Scan(&at)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, translate(err)
	}
	t := fromMicros(at)
	return &t, nil
}

// jsonStrings encodes ids as a JSON array for json_each (never null).
func jsonStrings(ids []string) string {
	if ids == nil {
		ids = []string{}
	}
	b, _ := json.Marshal(ids)
	return string(b)
}
