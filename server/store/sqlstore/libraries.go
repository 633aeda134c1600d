package sqlstore

import (
	"context"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

type libraries struct{ q Q }

func (r Repos) Libraries() store.Libraries { return libraries{r.Q} }

var _ store.Libraries = libraries{}

const libraryCols = `l.id, l.name, l.owner_id, l.trashed_at, l.created_at, l.updated_at`

func scanLibrary(row scanner, extra ...any) (*catalog.Library, error) {
	var l catalog.Library
	var trashed *int64
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
	res, err := s.q.exec(ctx, `INSERT INTO libraries (id, name, name_key, owner_id, trashed_at,
		created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
		l.ID, l.Name, catalog.NameKey(l.Name), l.OwnerID, nullMicros(l.TrashedAt),
		micros(l.CreatedAt), micros(l.UpdatedAt))
	if err := s.q.inserted("create library", l.Name, res, err); err != nil {
		return err
	}
	_, err = s.q.exec(ctx, `INSERT INTO library_members (library_id, user_id, role, created_at)
		VALUES (?, ?, 'owner', ?)`, l.ID, l.OwnerID, micros(l.CreatedAt))
	return s.q.one("add library owner", l.ID, err)
}

func (s libraries) Get(ctx context.Context, id string) (*catalog.Library, error) {
	l, err := scanLibrary(s.q.queryRow(ctx, `SELECT `+libraryCols+` FROM libraries l WHERE l.id = ?`, id))
	return l, s.q.one("library", id, err)
}

func (s libraries) Update(ctx context.Context, l *catalog.Library) error {
	// A rename onto another of the owner's names is a conflict; checked
	// first so that the unique index does not abort a PostgreSQL
	// transaction.
	var taken bool
	err := s.q.queryRow(ctx, `SELECT EXISTS (SELECT 1 FROM libraries WHERE owner_id =
		(SELECT owner_id FROM libraries WHERE id = ?) AND name_key = ? AND id <> ?)`,
		l.ID, catalog.NameKey(l.Name), l.ID).Scan(&taken)
	if err != nil {
		return s.q.one("library", l.ID, err)
	}
	if taken {
		return s.q.one("rename library", l.Name, catalog.ErrConflict)
	}
	res, err := s.q.exec(ctx, `UPDATE libraries SET name = ?, name_key = ?, trashed_at = ?,
		updated_at = ? WHERE id = ?`, l.Name, catalog.NameKey(l.Name), nullMicros(l.TrashedAt),
		micros(l.UpdatedAt), l.ID)
	return s.q.affected("library", l.ID, res, err)
}

func (s libraries) Membership(ctx context.Context, libraryID, userID string) (*catalog.Membership, error) {
	var role string
	l, err := scanLibrary(s.q.queryRow(ctx, `SELECT `+libraryCols+`, m.role
		FROM library_members m JOIN libraries l ON l.id = m.library_id
		WHERE m.library_id = ? AND m.user_id = ?`, libraryID, userID), &role)
	if err != nil {
		return nil, s.q.one("library", libraryID, err)
	}
	return &catalog.Membership{Library: *l, Role: catalog.Role(role)}, nil
}

func (s libraries) ListForUser(ctx context.Context, f query.LibraryFilter, p query.Page) ([]catalog.Membership, bool, error) {
	lq := listQuery{
		cols:  libraryCols + `, m.role`,
		from:  `library_members m JOIN libraries l ON l.id = m.library_id`,
		where: []string{"m.user_id = ?"},
		args:  []any{f.UserID},
		idCol: "m.library_id",
		desc:  true,
	}
	if f.IDs != nil {
		cond, arg := s.q.d.InStrings("m.library_id", f.IDs)
		lq.where, lq.args = append(lq.where, cond), append(lq.args, arg)
	}
	switch {
	case f.OnlyTrashed:
		lq.where = append(lq.where, "l.trashed_at IS NOT NULL")
	case !f.IncludeTrashed:
		lq.where = append(lq.where, "l.trashed_at IS NULL")
	}
	return page(ctx, s.q, lq, p, scanMembership)
}

// scanMembership reads a row of libraryCols and m.role.
func scanMembership(row scanner) (catalog.Membership, error) {
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
	l, err := scanLibrary(s.q.queryRow(ctx, `SELECT `+libraryCols+` FROM libraries l
		WHERE l.owner_id = ? AND l.name_key = ?`, ownerID, nameKey))
	return l, s.q.one("library named", nameKey, err)
}

func (s libraries) CountLiveOwned(ctx context.Context, ownerID string) (int, error) {
	var n int
	err := s.q.queryRow(ctx, `SELECT count(*) FROM libraries WHERE owner_id = ?
		AND trashed_at IS NULL`, ownerID).Scan(&n)
	return n, s.q.translate(err)
}

func (s libraries) WithPositions(ctx context.Context) ([]string, error) {
	return queryStrings(ctx, s.q, `SELECT l.id FROM libraries l WHERE EXISTS
		(SELECT 1 FROM assets a WHERE a.library_id = l.id AND a.latitude IS NOT NULL) ORDER BY l.id`)
}
