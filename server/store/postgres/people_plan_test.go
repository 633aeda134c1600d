package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// TestPeopleQueriesUseIndexes runs the people, faces and clustering
// queries of the store (reads and writes) and explains each: none may scan
// a table, the named index must drive, and a sort is allowed only where
// the rows sorted are one asset's or person's few rows or a handful of ids.
// The triggers' own statements are spelled out in the last cases (EXPLAIN
// does not show what a trigger runs).
func TestPeopleQueriesUseIndexes(t *testing.T) {
	f := newPeopleFixture(t)
	ctx := t.Context()
	lib := f.lib
	page := query.Page{Limit: 20}
	after := func(id string) query.Page { return query.Page{Limit: 20, AfterID: id} }
	person := f.people[40]
	named := true
	sql := func(stmt string, args ...any) func(r store.Repos) error {
		return func(r store.Repos) error {
			rows, err := r.(repos).q.query(ctx, stmt, args...)
			if err != nil {
				return err
			}
			rows.Close()
			return rows.Err()
		}
	}
	cases := []struct {
		name   string
		run    func(r store.Repos) error
		index  string // must appear in the plan of some statement
		sortOK bool
		// walkOK allows an index walked whole, where the planner may judge
		// that cheaper on this small fixture (merge joins with an index's
		// every entry); on a large library it probes instead.
		walkOK bool
	}{
		{"a library's verified people, first page", func(r store.Repos) error {
			_, _, err := r.People().List(ctx, query.PersonFilter{LibraryID: lib}, page)
			return err
		}, "people_library_verified", false, false},
		{"a library's people after a cursor, unverified too", func(r store.Repos) error {
			_, _, err := r.People().List(ctx, query.PersonFilter{LibraryID: lib, IncludeUnverified: true},
				after(f.people[100]))
			return err
		}, "people_library", false, false},
		// A name filter keeps the named people holding the text: the planner
		// may collect the library's few matches and sort them.
		{"a library's people by name, after a cursor", func(r store.Repos) error {
			filter := query.PersonFilter{LibraryID: lib, Name: "name", Named: &named}
			first, _, err := r.People().List(ctx, filter, query.Page{Limit: 5})
			if err != nil || len(first) == 0 {
				return fmt.Errorf("first page of %d: %w", len(first), err)
			}
			_, _, err = r.People().List(ctx, filter, after(first[len(first)-1].ID))
			return err
		}, "people_library", true, false},
		// An album's people are collected through its live links and
		// sorted: as many as the album's assets hold at most.
		{"an album's people", func(r store.Repos) error {
			_, _, err := r.People().List(ctx, query.PersonFilter{LibraryID: lib, AlbumID: f.album}, page)
			return err
		}, "album_assets_timeline", true, true},
		{"an asset's people", func(r store.Repos) error {
			_, _, err := r.People().List(ctx, query.PersonFilter{LibraryID: lib, AssetID: f.assets[5]}, page)
			return err
		}, "person_assets_asset", true, false},
		{"people by id, by name, of assets", func(r store.Repos) error {
			if _, err := r.People().GetMany(ctx, f.people[:5]); err != nil {
				return err
			}
			if _, err := r.People().FindByName(ctx, lib, "name 40"); err != nil && !errors.Is(err, catalog.ErrNotFound) {
				return err
			}
			_, err := r.People().ForAssets(ctx, f.assets[:20])
			return err
		}, "person_assets_asset", true, false},
		{"a person's writes", func(r store.Repos) error {
			p, err := r.People().Get(ctx, person)
			if err != nil {
				return err
			}
			p.Name = "Renamed"
			if err := r.People().Update(ctx, p); err != nil {
				return err
			}
			return r.People().Delete(ctx, []string{person})
		}, "people_pkey", true, false},
		{"a library's faces after a cursor", func(r store.Repos) error {
			_, _, err := r.Faces().List(ctx, query.FaceFilter{LibraryID: lib}, after(f.faces[2000]))
			return err
		}, "faces_library", false, false},
		{"an asset's faces", func(r store.Repos) error {
			_, _, err := r.Faces().List(ctx, query.FaceFilter{LibraryID: lib, AssetID: f.assets[5]}, page)
			return err
		}, "faces_asset", true, false},
		{"a person's faces", func(r store.Repos) error {
			_, _, err := r.Faces().List(ctx, query.FaceFilter{LibraryID: lib, PersonID: person}, page)
			return err
		}, "faces_person", false, false},
		{"faces by id, of assets, replaceable", func(r store.Repos) error {
			if _, err := r.Faces().GetMany(ctx, f.faces[:5]); err != nil {
				return err
			}
			if _, err := r.Faces().ForAssets(ctx, f.assets[:20]); err != nil {
				return err
			}
			_, err := r.Faces().Replaceable(ctx, f.assets[5])
			return err
		}, "faces_asset", true, false},
		{"face writes", func(r store.Repos) error {
			if err := r.Faces().Assign(ctx, f.faces[:3], &person, time.Unix(0, 0)); err != nil {
				return err
			}
			if _, err := r.Faces().MoveAll(ctx, f.people[41:43], person, time.Unix(0, 0)); err != nil {
				return err
			}
			return r.Faces().Delete(ctx, f.faces[3:5])
		}, "faces_person", true, false},
		{"centroids since a generation, stale ones, one person's", func(r store.Repos) error {
			if _, err := r.Clustering().Centroids(ctx, lib, 100); err != nil {
				return err
			}
			if _, err := r.Clustering().StaleCentroids(ctx, lib); err != nil {
				return err
			}
			_, err := r.Clustering().Centroid(ctx, person)
			return err
		}, "person_centroids_version", false, false},
		{"an asset's pending faces, a person's faces", func(r store.Repos) error {
			if _, err := r.Clustering().PendingFaces(ctx, f.assets[5]); err != nil {
				return err
			}
			_, err := r.Clustering().PersonFaces(ctx, person)
			return err
		}, "faces_person", true, false},
		{"a library's movable faces and people", func(r store.Repos) error {
			if _, err := r.Clustering().MovableFaces(ctx, lib); err != nil {
				return err
			}
			_, err := r.Clustering().People(ctx, lib)
			return err
		}, "faces_unplaced", true, true},
		{"the machine's writes", func(r store.Repos) error {
			if _, err := r.Clustering().PutCentroid(ctx, store.Centroid{PersonID: person, LibraryID: lib,
				Sum: []byte{1, 2, 3, 4}, N: 1}); err != nil {
				return err
			}
			if _, err := r.Clustering().Place(ctx, f.faces[:3], nil, person, time.Unix(0, 0)); err != nil {
				return err
			}
			if _, err := r.Clustering().FeatureIfBetter(ctx, person, f.faces[0], 1); err != nil {
				return err
			}
			if _, err := r.Clustering().FeatureBest(ctx, person); err != nil {
				return err
			}
			if _, err := r.Clustering().SetMachineVerified(ctx, person, false); err != nil {
				return err
			}
			_, err := r.Clustering().DeleteEmpty(ctx, f.people[:5])
			return err
		}, "faces_person", true, false},
		{"a person's timeline (the asset list's person_ids)", func(r store.Repos) error {
			_, _, err := r.Assets().List(ctx, query.AssetFilter{LibraryID: lib, PersonIDs: []string{f.star}},
				page)
			return err
		}, "person_assets_timeline", false, false},
		// The rarer person's links in the window drive; the planner may
		// collect those few and sort them.
		{"two people's timeline in a month, after a cursor", func(r store.Repos) error {
			month := catalog.CaptureRange{After: &catalog.TimeBound{Time: time.Unix(100*3600, 0).UTC()},
				Before: &catalog.TimeBound{Time: time.Unix(900*3600, 0).UTC()}}
			filter := query.AssetFilter{LibraryID: lib, PersonIDs: []string{f.star, person}, Capture: month}
			first, _, err := r.Assets().List(ctx, filter, query.Page{Limit: 2})
			if err != nil || len(first) == 0 {
				return err
			}
			_, _, err = r.Assets().List(ctx, filter, after(first[len(first)-1].ID))
			return err
		}, "person_assets_timeline", true, false},
		{"trigger: a person's newest face", sql(`SELECT faces.id FROM faces WHERE faces.person_id = ?
			ORDER BY faces.id DESC LIMIT 1`, person), "faces_person", false, false},
		{"trigger: an asset's links follow it", sql(`UPDATE person_assets SET capture_wall = 1, live = 0
			WHERE asset_id = ? RETURNING person_id`, f.assets[5]), "person_assets_asset", false, false},
		{"trigger: a link's count", sql(`UPDATE person_assets SET faces = faces - 1
			WHERE person_id = ? AND asset_id = ? RETURNING faces`, person, f.assets[5]), "on person_assets", false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tx, err := f.db.pool.Begin(ctx)
			require.NoError(t, err)
			defer tx.Rollback(context.WithoutCancel(ctx)) // every case sees the same fixture
			_, err = tx.Exec(ctx, "SET LOCAL enable_seqscan = off")
			require.NoError(t, err)
			rec := &stmtLog{q: tx}
			require.NoError(t, c.run(newRepos(conn{rec})))
			var all []string
			for i, stmt := range rec.stmts {
				plan := planOf(t, tx, stmt, rec.args[i])
				text := strings.Join(plan, "\n")
				t.Logf("%s\nplan:\n%s", strings.Join(strings.Fields(stmt), " "), text)
				require.NotContains(t, text, "Seq Scan", "a table scan in: %s", stmt)
				if !c.walkOK {
					require.Empty(t, indexWalks(plan), "a whole index walked in: %s", stmt)
				}
				if !c.sortOK {
					require.NotRegexp(t, `(?m)^\s*(->\s*)?Sort\b`, text, "a sort in: %s", stmt)
				}
				all = append(all, plan...)
			}
			require.Contains(t, strings.Join(all, "\n"), c.index)
		})
	}
}

// indexWalks returns the index scans of a plan that have no Index Cond:
// they walk a whole index (a merge join's inner side, an ordered walk
// filtering rows) however few rows the statement needs.
func indexWalks(plan []string) []string {
	indent := func(line string) int { return len(line) - len(strings.TrimLeft(line, " ")) }
	var walks []string
	for i, line := range plan {
		if !strings.Contains(line, "Index Scan") && !strings.Contains(line, "Index Only Scan") ||
			strings.Contains(line, "Bitmap Index Scan") {
			continue
		}
		cond := false
		for _, detail := range plan[i+1:] {
			trimmed := strings.TrimSpace(detail)
			if indent(detail) <= indent(line) || strings.HasPrefix(trimmed, "->") {
				break
			}
			cond = cond || strings.HasPrefix(trimmed, "Index Cond:")
		}
		if !cond {
			walks = append(walks, strings.TrimSpace(line))
		}
	}
	return walks
}

// stmtLog records every statement run through it (as sent: with $n
// placeholders) and its arguments, reads and writes.
type stmtLog struct {
	q     querier
	stmts []string
	args  [][]any
}

func (l *stmtLog) note(sql string, args []any) {
	l.stmts, l.args = append(l.stmts, sql), append(l.args, args)
}

func (l *stmtLog) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	l.note(sql, args)
	return l.q.Exec(ctx, sql, args...)
}

func (l *stmtLog) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	l.note(sql, args)
	return l.q.Query(ctx, sql, args...)
}

func (l *stmtLog) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	l.note(sql, args)
	return l.q.QueryRow(ctx, sql, args...)
}
