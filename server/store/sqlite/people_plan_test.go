package sqlite

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// peoplePlanCases are the hot-path queries of people.go, faces.go and the
// asset list's person_ids filter, built from the same constants and
// condition builders the store uses.
func peoplePlanCases() []planCase {
	listSQL := func(cols, from string, where []string, idCol string, cursor bool) string {
		if cursor {
			where = append(where, idCol+" < ?")
		}
		return "SELECT " + cols + " FROM " + from + " WHERE " + strings.Join(where, " AND ") +
			" ORDER BY " + idCol + " DESC LIMIT ?"
	}
	people := func(name string, f store.PersonFilter, cursor bool) planCase {
		f.LibraryID = "lib_a"
		where, args := personConditions(f)
		if cursor {
			args = append(args, "person_a")
		}
		return planCase{name: name, sql: listSQL(personCols, personFrom, where, "p.id", cursor), args: append(args, 21)}
	}
	faces := func(name string, f store.FaceFilter, cursor bool) planCase {
		f.LibraryID = "lib_a"
		where, args := faceConditions(f)
		if cursor {
			args = append(args, "face_a")
		}
		return planCase{name: name, sql: listSQL(faceCols, faceFrom, where, "f.id", cursor), args: append(args, 21)}
	}
	// The asset list with person_ids, both plans (see sparsePersonAssets).
	assetsByPeople := func(name string, sparse bool) planCase {
		f := store.AssetFilter{LibraryID: "lib_a", PersonIDs: []string{"person_a", "person_b"}}
		q := listQuery{from: "assets a"}
		q.where, q.args = assetConditions(f, false)
		if sparse {
			q.from = "(SELECT asset_id FROM person_assets WHERE person_id = ?) pd CROSS JOIN assets a ON a.id = pd.asset_id"
			q.args = append([]any{"person_a"}, q.args...)
		}
		return planCase{name: name, tempSortOK: sparse, sql: "SELECT " + assetCols + " FROM " + q.from + " WHERE " +
			strings.Join(q.where, " AND ") + " ORDER BY a.capture_wall DESC, a.id DESC LIMIT ?", args: append(q.args, 21)}
	}
	return []planCase{
		people("people list, verified", store.PersonFilter{}, false),
		people("people list, verified, after a cursor", store.PersonFilter{}, true),
		people("people list with unverified clusters", store.PersonFilter{IncludeUnverified: true}, true),
		people("people list by name and named", store.PersonFilter{Name: "ann", Named: ptrTo(true)}, true),
		people("people list by ids", store.PersonFilter{IDs: []string{"person_a", "person_b"}}, false),
		people("people list of an asset", store.PersonFilter{AssetID: "asset_a"}, true),
		people("people list of an album", store.PersonFilter{AlbumID: "album_a"}, true),
		{name: "person by name key", sql: "SELECT " + personCols + " FROM " + personFrom +
			" WHERE p.library_id = ? AND p.name_key = ?", args: []any{"lib_a", "ann"}},
		{name: "people of a page of assets", tempSortOK: true, sql: "SELECT " + personCols + ", pa.asset_id FROM " +
			"person_assets pa JOIN people p ON p.id = pa.person_id" + personJoins +
			" WHERE pa.asset_id IN (?, ?) ORDER BY pa.asset_id, p.id", args: []any{"asset_a", "asset_b"}},
		faces("faces list", store.FaceFilter{}, true),
		faces("faces list of an asset", store.FaceFilter{AssetID: "asset_a"}, true),
		faces("faces list of a person", store.FaceFilter{PersonID: "person_a"}, true),
		faces("faces list of an asset and a person", store.FaceFilter{AssetID: "asset_a", PersonID: "person_a"}, true),
		faces("faces list by ids", store.FaceFilter{IDs: []string{"face_a", "face_b"}}, false),
		{name: "faces of a page of assets", tempSortOK: true, sql: "SELECT " + faceCols + " FROM " + faceFrom +
			" WHERE f.asset_id IN (?, ?) ORDER BY f.asset_id, f.id", args: []any{"asset_a", "asset_b"}},
		{name: "faces moved by a merge", sql: "UPDATE faces SET person_id = ?, updated_at = ? WHERE person_id IN (?, ?)" +
			" RETURNING id", args: []any{"person_a", 1, "person_b", "person_c"}},
		{name: "people's face counts, read to choose the plan",
			sql: "SELECT id, face_count FROM people WHERE id IN (?, ?)", args: []any{"person_a", "person_b"}},
		assetsByPeople("asset list by people, walking the timeline", false),
		assetsByPeople("asset list by people, from the rarest person's assets", true),
		// Statements of the triggers in migration 0008.
		{name: "trigger: the newest remaining face of a person",
			sql: "SELECT id FROM faces WHERE person_id = ? ORDER BY id DESC LIMIT 1", args: []any{"person_a"}},
		{name: "trigger: an asset's person links follow its trash state",
			sql: "UPDATE person_assets SET live = ? WHERE asset_id = ?", args: []any{0, "asset_a"}},
		{name: "trigger: a face leaves its person's asset",
			sql:  "DELETE FROM person_assets WHERE person_id = ? AND asset_id = ? AND faces <= 0",
			args: []any{"person_a", "asset_a"}},
	}
}

func ptrTo[T any](v T) *T { return &v }

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
	t.Run("the sparse plan starts from the person's assets", func(t *testing.T) {
		c := named("asset list by people, from the rarest person's assets")
		plan := explain(t, conn, c.sql, c.args)
		require.True(t, strings.HasPrefix(plan[0], "SEARCH person_assets USING PRIMARY KEY (person_id=?)"), "%v", plan)
	})
}

// TestPersonPlansAgree pages through random person_ids selections with
// both plans of List and requires the same pages.
func TestPersonPlansAgree(t *testing.T) {
	f := newAggFixture(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(3, 5))
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	var people []string
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
				}
			}
		}
		return nil
	}))
	saved := sparsePersonAssets
	t.Cleanup(func() { sparsePersonAssets = saved })
	walk := func(filter store.AssetFilter) []string {
		var ids []string
		after := ""
		for {
			page, more, err := f.db.Read().Assets().List(ctx, filter, store.Page{Limit: 9, AfterID: after})
			require.NoError(t, err)
			for _, a := range page {
				ids = append(ids, a.ID)
			}
			if !more {
				return ids
			}
			after = page[len(page)-1].ID
		}
	}
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
		filter := store.AssetFilter{LibraryID: f.lib, PersonIDs: sel, State: []store.AssetState{
			store.StateLive, store.StateAll, store.StateTrashed}[i%3], Asc: i%2 == 0}
		sparsePersonAssets = 1 << 30 // always from the rarest person's assets
		sparse := walk(filter)
		sparsePersonAssets = 0 // always the timeline
		dense := walk(filter)
		require.Equal(t, sparse, dense, "selection %d: %v", i, sel)
		if len(sel) == 1 && filter.State == store.StateLive {
			p, err := f.db.Read().People().Get(ctx, sel[0])
			require.NoError(t, err)
			require.Len(t, dense, p.AssetCount, "asset_count counts the live assets the filter lists")
		}
	}
}
