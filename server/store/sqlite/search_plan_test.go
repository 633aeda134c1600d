package sqlite

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store/sqlstore"
)

// TestSearchPlans explains the queries of content search as the store
// builds them: every table is reached through an index or the full-text
// index, and the only sorts are of the hits (ranking and grouping them;
// the hits are what the indexes found) and of a library's people.
func TestSearchPlans(t *testing.T) {
	db, err := Open(t.Context(), filepath.Join(t.TempDir(), "plan.db"))
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	after, before := catalog.TimeBound{}, catalog.TimeBound{}
	filter := query.AssetFilter{LibraryID: "lib_a", MediaType: catalog.MediaImage,
		Capture: catalog.CaptureRange{After: &after, Before: &before}, AlbumID: "album_a", PersonIDs: []string{"person_a"},
		Location: &catalog.Location{Box: &catalog.BBox{MinLon: -10, MinLat: 35, MaxLon: 10, MaxLat: 45}}}
	kyoto := query.SearchTerm{"kyoto"}
	named := query.SearchQuery{Filter: filter, Terms: []query.SearchTerm{kyoto, {"ann", "anne"}},
		Names: [][]query.NameMatch{nil, {{Kind: query.NamePerson, ID: "person_a"}, {Kind: query.NameAlbum, ID: "album_b"}}}}
	image := &query.ImageCriteria{Visual: []query.ScoredID{{ID: "asset_a", Score: 0.9}},
		People: []query.PersonLike{{PersonID: "person_a", Face: 0, Score: 0.7}}}
	cases := map[string]query.SearchQuery{
		"text":                           {Filter: query.AssetFilter{LibraryID: "lib_a"}, Terms: []query.SearchTerm{kyoto}},
		"text and filters":               {Filter: filter, Terms: []query.SearchTerm{kyoto}},
		"text and names":                 named,
		"text and names in a window":     named, // with plan.window below
		"a word and the words it begins": {Filter: filter, Terms: []query.SearchTerm{{"sun", "sun*"}, kyoto}},
		"image":                          {Filter: query.AssetFilter{LibraryID: "lib_a"}, Image: image},
		"image, text, filters":           {Filter: filter, Terms: []query.SearchTerm{kyoto}, Image: image},
	}
	for name, q := range cases {
		t.Run(name, func(t *testing.T) {
			plan := searchPlan{timeExpr: timeTokens(q.Filter.Capture)}
			if name == "text and names in a window" {
				plan.window = windowSet(q.Filter)
			}
			b, err := ranked(q, plan)
			require.NoError(t, err)
			page, args := b.Page(21, &sqlstore.ScoreCursor{Score: 1, ID: "asset_b"})
			requireIndexed(t, db, page, args, true)
			cursor, args := b.Cursor("asset_b")
			requireIndexed(t, db, cursor, args, false)
		})
	}
	r := db.Read().Search()
	window := query.AssetFilter{LibraryID: "lib_a", Capture: catalog.CaptureRange{After: &after, Before: &before}}
	for name, pre := range map[string]*prefilterSQL{"capture window": windowSet(window), "person": personSet("person_a"),
		"album": albumSet("album_a")} {
		t.Run("text prefiltered by "+name, func(t *testing.T) {
			b, err := ranked(query.SearchQuery{Filter: filter, Terms: []query.SearchTerm{kyoto}}, searchPlan{pre: pre})
			require.NoError(t, err)
			page, args := b.Page(21, nil)
			requireIndexed(t, db, page, args, true)
		})
	}
	names, namesArgs := fts{}.Names("lib_a", query.SearchTerm{"ann"})
	word, wordArgs := fts{}.HasWord("ann", true)
	lookups := map[string]struct {
		sql   string
		args  []any
		sorts bool
	}{
		"names":  {names, namesArgs, false},
		"a word": {word, wordArgs, false},
		"pHash bands": {`SELECT a.id FROM assets a WHERE (a.library_id = ? AND a.phash_b0 IN (?, ?))
			OR (a.library_id = ? AND a.phash_b3 IN (?)) LIMIT ?`, []any{"lib_a", "00ff", "01ff", "lib_a", "abcd", 10}, false},
		"crop pHash bands": {`SELECT a.id FROM asset_phashes p CROSS JOIN assets a ON a.id = p.asset_id
			WHERE (p.library_id = ? AND p.b0 IN (?, ?)) OR (p.library_id = ? AND p.b3 IN (?)) LIMIT ?`,
			[]any{"lib_a", "00ff", "01ff", "lib_a", "abcd", 10}, false},
		"person vectors": {sqlstore.PersonVectorsSQL(dialect), []any{"lib_a", 10}, true},
	}
	for name, c := range lookups {
		t.Run(name, func(t *testing.T) { requireIndexed(t, db, c.sql, c.args, c.sorts) })
	}
	// The lookups run.
	_, err = r.HasWord(context.Background(), "ann", true)
	require.NoError(t, err)
	_, err = r.Names(context.Background(), "lib_a", query.SearchTerm{"ann"})
	require.NoError(t, err)
	_, err = r.PHashCandidates(context.Background(), "lib_a", [4][]string{{"00ff"}, nil, nil, {"abcd"}}, 10)
	require.NoError(t, err)
	_, err = r.PersonVectors(context.Background(), "lib_a", 10)
	require.NoError(t, err)
}

// ranked is q's ranked search as Assets builds it, under plan.
func ranked(q query.SearchQuery, plan searchPlan) (*sqlstore.Ranked, error) {
	ctes, args, err := criteria(q, plan)
	if err != nil {
		return nil, err
	}
	return sqlstore.NewRanked(dialect, q, ctes, args)
}

// requireIndexed fails on a full scan of a table, and on a sort unless
// sorts allows it.
func requireIndexed(t *testing.T, db *DB, query string, args []any, sorts bool) {
	t.Helper()
	plan := explain(t, db.reader, query, args)
	t.Logf("plan:\n  %s", strings.Join(plan, "\n  "))
	for _, row := range plan {
		require.False(t, fullScan(row) && !intermediate(row), "full scan: %s", row)
		if !sorts {
			require.NotContains(t, row, "TEMP B-TREE FOR ORDER BY", "sort: %s", row)
		}
	}
}

// intermediate reports whether a plan row scans a query's own intermediate
// rows (the page p, the hits of a criterion, a subquery), not a table.
func intermediate(row string) bool {
	name := strings.TrimPrefix(row, "SCAN ")
	return name == "p" || name == "txt" || name == "img" || name == "pre" || strings.HasPrefix(name, "(subquery-")
}
