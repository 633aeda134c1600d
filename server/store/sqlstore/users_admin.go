package sqlstore

import (
	"context"
	"fmt"
	"strings"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
)

func (s users) List(ctx context.Context, email string, p query.Page) ([]catalog.User, bool, error) {
	lq := listQuery{cols: userCols, from: "users", idCol: "id", desc: true}
	if email = catalog.NameKey(email); email != "" {
		lq.where, lq.args = []string{s.q.d.Instr + "(email_key, ?) > 0"}, []any{email}
	}
	return page(ctx, s.q, lq, p, func(rows scanner) (catalog.User, error) {
		u, err := scanUser(rows)
		if err != nil {
			return catalog.User{}, err
		}
		return *u, nil
	})
}

// CountActiveSuperusers locks the rows it counts in PostgreSQL: a
// concurrent demotion waits, and under READ COMMITTED the count taken
// after it sees its result. SQLite needs no lock: it runs one write
// transaction at a time.
func (s users) CountActiveSuperusers(ctx context.Context) (int, error) {
	var n int
	err := s.q.queryRow(ctx, `SELECT count(*) FROM (SELECT id FROM users WHERE is_superuser AND is_active`+
		s.q.d.ForUpdate+`) s`).Scan(&n)
	return n, s.q.translate(err)
}

// ownedLibraries selects the ids of the libraries the user (the one
// placeholder) owns.
const ownedLibraries = `(SELECT id FROM libraries WHERE owner_id = ?)`

// userDeletion is what Delete runs, in order, with the user's id: what
// the user contributed elsewhere passes to each library's owner, then the
// rows of the owned libraries that do not cascade go, then the libraries
// (members, albums, stacks, invitations, tags and aggregates cascade).
var userDeletion = []string{
	`UPDATE assets SET contributor_id = (SELECT l.owner_id FROM libraries l WHERE l.id = assets.library_id)
		WHERE contributor_id = ?`,
	`UPDATE asset_versions SET contributor_id = (SELECT l.owner_id FROM assets a
		JOIN libraries l ON l.id = a.library_id WHERE a.id = asset_versions.asset_id) WHERE contributor_id = ?`,
	`UPDATE invitations SET created_by = (SELECT l.owner_id FROM libraries l WHERE l.id = invitations.library_id)
		WHERE created_by = ?`,
	`DELETE FROM tasks WHERE library_id IN ` + ownedLibraries,
	`DELETE FROM faces WHERE library_id IN ` + ownedLibraries,
	`DELETE FROM people WHERE library_id IN ` + ownedLibraries,
	`DELETE FROM clustering_state WHERE library_id IN ` + ownedLibraries,
	`DELETE FROM events WHERE library_id IN ` + ownedLibraries,
	`DELETE FROM libraries WHERE owner_id = ?`,
}

func (s users) Delete(ctx context.Context, id string) error {
	var n int
	err := s.q.queryRow(ctx, `SELECT count(*) FROM assets WHERE library_id IN `+ownedLibraries, id).Scan(&n)
	if err != nil {
		return s.q.one("delete user", id, err)
	}
	if n > 0 {
		return fmt.Errorf("user %s: their libraries still hold %d assets: %w", id, n, catalog.ErrConflict)
	}
	for _, stmt := range userDeletion {
		if _, err := s.q.exec(ctx, stmt, id); err != nil {
			return fmt.Errorf("delete user %s: %s: %w", id, strings.Fields(stmt)[0], s.q.translate(err))
		}
	}
	res, err := s.q.exec(ctx, `DELETE FROM users WHERE id = ?`, id)
	return s.q.affected("user", id, res, err)
}
