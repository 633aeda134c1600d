package sqlite

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/store/sqlstore"
	"github.com/photoctl/photoctl/server/store/storetest"
)

// peoplePlanCases are the hot-path queries of the people and faces
// repositories (sqlstore, as they issue them over this dialect) and the
// asset list's person_ids filter, built from the same constants and
// condition builders the store uses.
func peoplePlanCases() []planCase {
	ctx := context.Background()
	page := query.Page{Limit: 20}
	after := func(id string, cursor bool) query.Page {
		if cursor {
			return query.Page{Limit: 20, AfterID: id}
		}
		return page
	}
	people := func(name string, f query.PersonFilter, cursor bool) planCase {
		f.LibraryID = "lib_a"
		return sharedSQL(func(r sqlstore.Repos) {
			_, _, _ = r.People().List(ctx, f, after("person_a", cursor))
		}).last(name)
	}
	faces := func(name string, f query.FaceFilter, cursor bool) planCase {
		f.LibraryID = "lib_a"
		return sharedSQL(func(r sqlstore.Repos) {
			_, _, _ = r.Faces().List(ctx, f, after("face_a", cursor))
		}).last(name)
	}
	// The asset list with person_ids: the rarest person's timeline drives,
	// optionally inside a capture window, after a cursor.
	assetsByPeople := func(name string, capture catalog.CaptureRange, cursor bool) planCase {
		f := query.AssetFilter{LibraryID: "lib_a", PersonIDs: []string{"person_a", "person_b"}, Capture: capture}
		return sharedSQL(func(r sqlstore.Repos) {
			_, _, _ = r.Assets().List(ctx, f, after("asset_a", cursor))
		}).last(name)
	}
	month := catalog.CaptureRange{After: &catalog.TimeBound{Time: time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)},
		Before: &catalog.TimeBound{Time: time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)}}
	return []planCase{
		people("people list, verified", query.PersonFilter{}, false),
		people("people list, verified, after a cursor", query.PersonFilter{}, true),
		people("people list with unverified clusters", query.PersonFilter{IncludeUnverified: true}, true),
		people("people list by name and named", query.PersonFilter{Name: "ann", Named: ptrTo(true)}, true),
		people("people list by ids", query.PersonFilter{IDs: []string{"person_a", "person_b"}}, false),
		people("people list of an asset", query.PersonFilter{AssetID: "asset_a"}, true),
		people("people list of an album", query.PersonFilter{AlbumID: "album_a"}, true),
		sharedSQL(func(r sqlstore.Repos) {
			_, _ = r.People().FindByName(ctx, "lib_a", "ann")
		}).last("person by name key"),
		withTempSort(sharedSQL(func(r sqlstore.Repos) {
			_, _ = r.People().ForAssets(ctx, []string{"asset_a", "asset_b"})
		}).last("people of a page of assets")),
		faces("faces list", query.FaceFilter{}, true),
		faces("faces list of an asset", query.FaceFilter{AssetID: "asset_a"}, true),
		faces("faces list of a person", query.FaceFilter{PersonID: "person_a"}, true),
		faces("faces list of an asset and a person", query.FaceFilter{AssetID: "asset_a", PersonID: "person_a"}, true),
		faces("faces list by ids", query.FaceFilter{IDs: []string{"face_a", "face_b"}}, false),
		withTempSort(sharedSQL(func(r sqlstore.Repos) {
			_, _ = r.Faces().ForAssets(ctx, []string{"asset_a", "asset_b"})
		}).last("faces of a page of assets")),
		{name: "faces moved by a merge", sql: "UPDATE faces SET person_id = ?, updated_at = ? WHERE person_id IN (?, ?)" +
			" RETURNING id", args: []any{"person_a", 1, "person_b", "person_c"}},
		{name: "people's face counts, read to choose the plan",
			sql: "SELECT id, face_count FROM people WHERE id IN (?, ?)", args: []any{"person_a", "person_b"}},
		assetsByPeople("asset list by people, through the rarest person's timeline", catalog.CaptureRange{}, false),
		assetsByPeople("asset list by people, after a cursor", catalog.CaptureRange{}, true),
		assetsByPeople("asset list by people in a month", month, true),
		// Statements of the triggers in migration 0008.
		{name: "trigger: the newest remaining face of a person",
			sql: "SELECT id FROM faces WHERE person_id = ? ORDER BY id DESC LIMIT 1", args: []any{"person_a"}},
		{name: "trigger: an asset's person links follow its capture time and trash state",
			sql: "UPDATE person_assets SET capture_wall = ?, live = ? WHERE asset_id = ?", args: []any{1, 0, "asset_a"}},
		{name: "trigger: a face leaves its person's asset",
			sql:  "DELETE FROM person_assets WHERE person_id = ? AND asset_id = ? AND faces <= 0",
			args: []any{"person_a", "asset_a"}},
	}
}

func ptrTo[T any](v T) *T { return &v }

func withTempSort(c planCase) planCase {
	c.tempSortOK = true
	return c
}

// stmtLog is a sqlstore.Conn that records the statements of the shared
// repositories and runs none: a read finds one row of zero values (so a
// cursor resolves and the page's query follows), a write changes nothing.
type stmtLog struct {
	stmts []string
	args  [][]any
}

// sharedSQL records the statements run issues through the shared
// repositories over this dialect.
func sharedSQL(run func(r sqlstore.Repos)) *stmtLog {
	l := &stmtLog{}
	run(sqlstore.Repos{Q: sqlstore.NewQ(l, dialect)})
	return l
}

// stmt is the i-th statement recorded as a plan case; last is the last.
func (l *stmtLog) stmt(name string, i int) planCase {
	return planCase{name: name, sql: l.stmts[i], args: l.args[i]}
}

func (l *stmtLog) last(name string) planCase { return l.stmt(name, len(l.stmts)-1) }

func (l *stmtLog) note(q string, args []any) {
	l.stmts, l.args = append(l.stmts, q), append(l.args, args)
}

func (l *stmtLog) Exec(_ context.Context, q string, args ...any) (sqlstore.Result, error) {
	l.note(q, args)
	return zeroRows{}, nil
}

func (l *stmtLog) Query(_ context.Context, q string, args ...any) (sqlstore.Rows, error) {
	l.note(q, args)
	return zeroRows{}, nil
}

func (l *stmtLog) QueryRow(_ context.Context, q string, args ...any) sqlstore.Row {
	l.note(q, args)
	return zeroRows{}
}

// zeroRows is every result of a stmtLog: no rows to read, none changed,
// and a single row that scans as zero values.
type zeroRows struct{}

func (zeroRows) RowsAffected() int64 { return 0 }
func (zeroRows) Next() bool          { return false }
func (zeroRows) Scan(...any) error   { return nil }
func (zeroRows) Err() error          { return nil }
func (zeroRows) Close()              {}

// TestPeopleQueriesUseIndexes explains the people and faces queries like
// TestQueriesUseIndexes does the others.
func TestPeopleQueriesUseIndexes(t *testing.T) {
	conn := planConn(t)

	for _, c := range peoplePlanCases() {
		t.Run(c.name, func(t *testing.T) {
			plan := explain(t, conn, c.sql, c.args)
			t.Logf("plan:\n  %s", strings.Join(plan, "\n  "))
			for _, row := range plan {
				require.False(t, fullScan(row), "a full table scan: %s", row)
				require.False(t, strings.Contains(row, "TEMP B-TREE") && !c.tempSortOK, "an unexpected sort: %s", row)
			}
		})
	}
	named := func(name string) planCase {
		for _, c := range peoplePlanCases() {
			if c.name == name {
				return c
			}
		}
		t.Fatalf("no plan case %q", name)
		return planCase{}
	}
	t.Run("a person's faces are found through its index, not the library's", func(t *testing.T) {
		c := named("faces list of a person")
		require.Contains(t, strings.Join(explain(t, conn, c.sql, c.args), "\n"), "faces_person")
	})
	t.Run("the person list walks the rarest person's timeline, within the window", func(t *testing.T) {
		for _, name := range []string{"asset list by people, through the rarest person's timeline", "asset list by people in a month"} {
			c := named(name)
			plan := explain(t, conn, c.sql, c.args)
			require.Contains(t, plan[0], "SEARCH pt USING COVERING INDEX person_assets_timeline (person_id=? AND live=?", "%v", plan)
		}
		c := named("asset list by people in a month")
		require.Contains(t, explain(t, conn, c.sql, c.args)[0], "capture_wall>? AND capture_wall<?")
	})
}

// TestPersonTimelineListsTheMembers pages through random person_ids
// selections, states, orders and capture windows, before and after capture
// edits and trash changes (which the link copies follow), and requires
// exactly the assets holding a face of every selected person, in order.
func TestPersonTimelineListsTheMembers(t *testing.T) {
	f := newAggFixture(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(3, 5))
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	var people []string
	var assets []*catalog.Asset
	members := map[string]map[string]bool{} // asset id → its people
	require.NoError(t, f.db.InTx(ctx, func(r store.Repos) error {
		for range 5 {
			p := &catalog.Person{ID: catalog.NewID(catalog.PrefixPerson, now), LibraryID: f.lib, Verified: true,
				CreatedAt: now, UpdatedAt: now}
			if err := r.People().Create(ctx, p); err != nil {
				return err
			}
			people = append(people, p.ID)
		}
		// Person i is in about one asset in 2^i; some assets are trashed.
		for range 300 {
			wall := now.Add(-time.Duration(rng.IntN(1000)) * time.Hour)
			a := f.newAsset(f.lib, wall, nil, catalog.MediaImage, nil, nil)
			if rng.IntN(10) == 0 {
				a.TrashedAt = &now
			}
			if err := r.Assets().Create(ctx, a); err != nil {
				return err
			}
			assets = append(assets, a)
			members[a.ID] = map[string]bool{}
			for i, p := range people {
				for range rng.IntN(2) + 1 {
					if rng.IntN(1<<i) != 0 {
						continue
					}
					face := &catalog.Face{ID: catalog.NewID(catalog.PrefixFace, now), AssetID: a.ID, LibraryID: f.lib,
						PersonID: &p, Source: catalog.FaceMachine, Box: catalog.BoundingBox{Width: 0.1, Height: 0.1},
						CreatedAt: now, UpdatedAt: now}
					if err := r.Faces().Create(ctx, face); err != nil {
						return err
					}
					members[a.ID][p] = true
				}
			}
		}
		return nil
	}))
	walk := func(filter query.AssetFilter) []string {
		return storetest.ListedAssetIDs(t, f.db.Read().Assets(), filter, 9)
	}
	check := func(round int) {
		for i := range 30 {
			var sel []string
			for _, p := range people {
				if rng.IntN(3) == 0 {
					sel = append(sel, p)
				}
			}
			if len(sel) == 0 {
				sel = people[i%len(people) : i%len(people)+1]
			}
			filter := query.AssetFilter{LibraryID: f.lib, State: []query.AssetState{
				query.StateLive, query.StateAll, query.StateTrashed}[i%3], Asc: i%2 == 0}
			if i%4 == 3 {
				from := now.Add(-time.Duration(rng.IntN(800)) * time.Hour)
				filter.Capture = catalog.CaptureRange{After: &catalog.TimeBound{Time: from},
					Before: &catalog.TimeBound{Time: from.Add(300 * time.Hour)}}
			}
			var want []string
			for _, id := range walk(filter) { // the library's timeline, filtered here
				all := true
				for _, p := range sel {
					all = all && members[id][p]
				}
				if all {
					want = append(want, id)
				}
			}
			filter.PersonIDs = sel
			require.Equal(t, want, walk(filter), "round %d, selection %d: %v", round, i, sel)
			if len(sel) == 1 && filter.State == query.StateLive && filter.Capture == (catalog.CaptureRange{}) {
				p, err := f.db.Read().People().Get(ctx, sel[0])
				require.NoError(t, err)
				require.Len(t, want, p.AssetCount, "asset_count counts the live assets the filter lists")
			}
		}
	}
	check(0)
	// Capture edits and trash changes move the links with their assets.
	require.NoError(t, f.db.InTx(ctx, func(r store.Repos) error {
		for _, a := range assets[:100] {
			a.Capture.Wall = now.Add(-time.Duration(rng.IntN(1000)) * time.Hour)
			if err := r.Assets().Update(ctx, a); err != nil {
				return err
			}
		}
		var ids []string
		for _, a := range assets[100:150] {
			ids = append(ids, a.ID)
		}
		if err := r.Assets().SetTrashed(ctx, ids, &now, now); err != nil {
			return err
		}
		return r.Assets().SetTrashed(ctx, []string{assets[0].ID, assets[1].ID}, nil, now)
	}))
	check(1)
}
