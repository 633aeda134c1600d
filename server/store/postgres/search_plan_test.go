package postgres

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/store/postgres/pgtest"
	"github.com/photoctl/photoctl/server/store/sqlstore"
)

// searchFixture seeds two libraries with assets captured an hour apart
// over two years, described from a small vocabulary (the triggers of 0010
// write their documents), and vacuums and analyzes the tables.
func searchFixture(t *testing.T) (*DB, string) {
	t.Helper()
	ctx := t.Context()
	db, err := Open(ctx, pgtest.NewURL(t, func(ctx context.Context, url string) error {
		db, err := Open(ctx, url)
		if err != nil {
			return err
		}
		return db.Close()
	}))
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, db.Close()) })
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	user := catalog.NewID(catalog.PrefixUser, now)
	lib, lib2 := catalog.NewID(catalog.PrefixLibrary, now), catalog.NewID(catalog.PrefixLibrary, now)
	require.NoError(t, db.InTx(ctx, func(r store.Repos) error {
		if err := r.Users().Create(ctx, &catalog.User{ID: user, Email: "a@example.com", IsActive: true,
			CreatedAt: now, UpdatedAt: now}); err != nil {
			return err
		}
		for _, id := range []string{lib, lib2} {
			if err := r.Libraries().Create(ctx, &catalog.Library{ID: id, Name: id, OwnerID: user,
				CreatedAt: now, UpdatedAt: now}); err != nil {
				return err
			}
		}
		_, err := r.(repos).q.exec(ctx, `INSERT INTO assets (id, library_id, contributor_id, media_type, mime_type,
			original_file_name, file_created_at, file_modified_at, capture_wall, capture_instant, checksum,
			original_size, file_size_bytes, created_at, updated_at, description)
			SELECT 'asset_' || lpad(i::text, 8, '0'), CASE WHEN i % 5 = 1 THEN ? ELSE ? END, ?, 'image',
				'image/jpeg', 'IMG_' || i || '.JPG', 0, 0, w, w, sha256(i::text::bytea), 1, 1, 0, 0,
				(ARRAY['a sandy beach at dusk', 'a dog in the park', 'a red bicycle', 'a mountain lake',
					'a city street at night', 'a birthday cake', 'a snowy forest', 'a family dinner',
					'an old church', 'a sunset over the sea'])[1 + i % 10]
			FROM generate_series(1, 17520) i
			CROSS JOIN LATERAL (SELECT 1704067200000000 + i::bigint * 3600000000 AS w) x`, lib2, lib, user)
		return err
	}))
	// Settled, as autovacuum leaves a table: the GIN index's pending list
	// merged, statistics taken.
	_, err = db.pool.Exec(ctx, "VACUUM ANALYZE")
	require.NoError(t, err)
	return db, lib
}

// searchExplain returns the plan of a query of the store (? placeholders).
func searchExplain(t *testing.T, tx pgx.Tx, sql string, args []any) string {
	t.Helper()
	return strings.Join(planOf(t, tx, rebind(sql), args), "\n")
}

// TestSearchQueriesUseIndexes explains the content-search queries as the
// store builds them. A text search with a month window finds its matches
// through the GIN index, the window's lexemes intersected with the word
// there, on its own (the planner's choice with real statistics). With
// sequential scans priced out, no other search query may need one.
func TestSearchQueriesUseIndexes(t *testing.T) {
	db, lib := searchFixture(t)
	ctx := t.Context()
	month := func(y int, m time.Month) catalog.CaptureRange {
		return catalog.CaptureRange{After: &catalog.TimeBound{Time: time.Date(y, m, 1, 0, 0, 0, 0, time.UTC)},
			Before: &catalog.TimeBound{Time: time.Date(y, m+1, 1, 0, 0, 0, 0, time.UTC)}}
	}
	june := month(2024, time.June)
	beach := query.SearchTerm{"beach"}

	t.Run("a text search with a month window reads the GIN index", func(t *testing.T) {
		for _, q := range []query.SearchQuery{
			{Filter: query.AssetFilter{LibraryID: lib, Capture: june}, Terms: []query.SearchTerm{beach}},
			{Filter: query.AssetFilter{LibraryID: lib, Capture: june}, Terms: []query.SearchTerm{{"sand*"}, {"dusk"}}},
		} {
			b, err := ranked(q)
			require.NoError(t, err)
			tx, err := db.pool.Begin(ctx)
			require.NoError(t, err)
			defer tx.Rollback(ctx)
			for _, c := range []searchCall{pageOf(b, nil), pageOf(b, &sqlstore.ScoreCursor{Score: 3, ID: "asset_00000100"})} {
				plan := searchExplain(t, tx, c.sql, c.args)
				require.Contains(t, plan, "Bitmap Index Scan on search_text_document", plan)
				require.Contains(t, plan, "'#m202406'", "the window is in the index condition\n%s", plan)
				// (The fixture has no stacks: its empty table may be scanned.)
				require.NotRegexp(t, `Seq Scan on (assets|search_text|album_assets|person_assets)\b`, plan, plan)
			}
			// A cursor's score is one document's, found by its key.
			c := cursorOf(b, "asset_00000100")
			plan := searchExplain(t, tx, c.sql, c.args)
			require.Contains(t, plan, "Index Scan using search_text_pkey", plan)
		}
		hits, more, err := db.Read().Search().Assets(ctx, query.SearchQuery{Filter: query.AssetFilter{LibraryID: lib,
			Capture: june}, Terms: []query.SearchTerm{beach}}, query.Page{Limit: 100})
		require.NoError(t, err)
		require.False(t, more)
		require.Len(t, hits, 72, "June's beaches: 720 hours, every tenth a beach (all in this library)")
		for _, h := range hits {
			require.Equal(t, time.June, h.Capture.Wall.Month())
		}
	})

	t.Run("every other search query is indexed", func(t *testing.T) {
		tx, err := db.pool.Begin(ctx)
		require.NoError(t, err)
		defer tx.Rollback(ctx)
		_, err = tx.Exec(ctx, "SET LOCAL enable_seqscan = off")
		require.NoError(t, err)
		filter := query.AssetFilter{LibraryID: lib, MediaType: catalog.MediaImage, Capture: june, AlbumID: "album_a",
			PersonIDs: []string{"person_a"}, Location: &catalog.Location{Box: &catalog.BBox{MinLon: -10, MinLat: 35, MaxLon: 10, MaxLat: 45}}}
		image := &query.ImageCriteria{Visual: []query.ScoredID{{ID: "asset_00000001", Score: 0.9}},
			People: []query.PersonLike{{PersonID: "person_a", Face: 0, Score: 0.7}}}
		named := query.SearchQuery{Filter: filter, Terms: []query.SearchTerm{beach, {"ann", "anne"}},
			Names: [][]query.NameMatch{nil, {{Kind: query.NamePerson, ID: "person_a"}, {Kind: query.NameAlbum, ID: "album_b"}}}}
		queries := map[string]query.SearchQuery{
			"text":                 {Filter: query.AssetFilter{LibraryID: lib}, Terms: []query.SearchTerm{beach}},
			"text and filters":     {Filter: filter, Terms: []query.SearchTerm{beach}},
			"text and names":       named,
			"image":                {Filter: query.AssetFilter{LibraryID: lib}, Image: image},
			"image, text, filters": {Filter: filter, Terms: []query.SearchTerm{beach}, Image: image},
		}
		cases := map[string]searchCall{}
		for name, q := range queries {
			b, err := ranked(q)
			require.NoError(t, err)
			cases[name+": page"] = pageOf(b, &sqlstore.ScoreCursor{Score: 3, ID: "asset_00000100"})
			cases[name+": cursor"] = cursorOf(b, "asset_00000100")
		}
		names, args := tsearch{}.Names(lib, query.SearchTerm{"ann*"})
		cases["names"] = searchCall{names, args}
		word, args := tsearch{}.HasWord("ann", true)
		cases["a word"] = searchCall{word, args}
		cases["person vectors"] = searchCall{sqlstore.PersonVectorsSQL(dialect), []any{lib, 10}}
		cases["pHash bands"] = searchCall{`SELECT a.id FROM assets a WHERE (a.library_id = ? AND ` + phashBand(0) + ` = ANY(?::text[]))
			OR (a.library_id = ? AND ` + phashBand(3) + ` = ANY(?::text[])) LIMIT ?`,
			[]any{lib, []string{"00ff", "01ff"}, lib, []string{"abcd"}, 10}}
		cases["crop pHash bands"] = searchCall{`SELECT a.id FROM asset_phashes p JOIN assets a ON a.id = p.asset_id
			WHERE (p.library_id = ? AND p.b0 = ANY(?::text[])) OR (p.library_id = ? AND p.b3 = ANY(?::text[])) LIMIT ?`,
			[]any{lib, []string{"00ff", "01ff"}, lib, []string{"abcd"}, 10}}
		for name, c := range cases {
			plan := searchExplain(t, tx, c.sql, c.args)
			require.NotContains(t, plan, "Seq Scan", "%s\n%s", name, plan)
		}
	})

	// The lookups run.
	r := db.Read().Search()
	ok, err := r.HasWord(ctx, "beach", false)
	require.NoError(t, err)
	require.True(t, ok)
	_, err = r.Names(ctx, lib, query.SearchTerm{"ann*"})
	require.NoError(t, err)
	_, err = r.PHashCandidates(ctx, lib, [4][]string{{"00ff"}, nil, nil, {"abcd"}}, 10)
	require.NoError(t, err)
	_, err = r.PersonVectors(ctx, lib, 10)
	require.NoError(t, err)
}

// searchCall is a query and its arguments.
type searchCall struct {
	sql  string
	args []any
}

// ranked is q's ranked search as Assets builds it.
func ranked(q query.SearchQuery) (*sqlstore.Ranked, error) {
	ctes, args, err := tsearch{}.Criteria(context.Background(), nil, q)
	if err != nil {
		return nil, err
	}
	return sqlstore.NewRanked(dialect, q, ctes, args)
}

// pageOf and cursorOf are a search's queries as Assets runs them.
func pageOf(b *sqlstore.Ranked, after *sqlstore.ScoreCursor) searchCall {
	sql, args := b.Page(21, after)
	return searchCall{sql, args}
}

func cursorOf(b *sqlstore.Ranked, id string) searchCall {
	sql, args := b.Cursor(id)
	return searchCall{sql, args}
}
