package sqlite

import (
	"context"
	"crypto/sha1"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/store/sqlstore"
)

func TestFindBySHA1AndSeq(t *testing.T) {
	f := newAggFixture(t)
	ctx := context.Background()
	wall := time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)
	var sums [][]byte
	var ids []string
	for i, lib := range []string{f.lib, f.lib, f.lib2} {
		a := f.newAsset(lib, wall.Add(time.Duration(i)*time.Hour), nil, catalog.MediaImage, nil, nil)
		sum := sha1.Sum([]byte{byte(i)})
		a.ChecksumSHA1 = sum[:]
		require.NoError(t, f.db.InTx(ctx, func(r store.Repos) error { return r.Assets().Create(ctx, a) }))
		sums, ids = append(sums, sum[:]), append(ids, a.ID)
	}
	unknown := sha1.Sum([]byte("none"))

	found, err := f.db.Read().Assets().FindBySHA1(ctx, f.lib, append(sums, unknown[:]))
	require.NoError(t, err)
	var got []string
	for _, a := range found {
		got = append(got, a.ID)
	}
	require.ElementsMatch(t, ids[:2], got, "only the library's assets, by their SHA-1")

	many := make([][]byte, 1200) // more than one batch
	for i := range many {
		many[i] = unknown[:]
	}
	many[1100] = sums[1]
	found, err = f.db.Read().Assets().FindBySHA1(ctx, f.lib, many)
	require.NoError(t, err)
	require.Len(t, found, 1)
	require.Equal(t, ids[1], found[0].ID)

	seq, err := f.db.Read().Assets().Seq(ctx, ids[1])
	require.NoError(t, err)
	require.Positive(t, seq)
	id, err := f.db.Read().Assets().IDBySeq(ctx, seq)
	require.NoError(t, err)
	require.Equal(t, ids[1], id)
	_, err = f.db.Read().Assets().IDBySeq(ctx, seq+1000)
	require.ErrorIs(t, err, catalog.ErrNotFound)
	_, err = f.db.Read().Assets().Seq(ctx, "asset_nope")
	require.ErrorIs(t, err, catalog.ErrNotFound)
}

func TestImmichQueriesUseIndexes(t *testing.T) {
	conn := planConn(t)
	for _, c := range []planCase{
		{name: "assets by sha1", sql: `SELECT ` + sqlstore.AssetCols(dialect) + ` FROM assets a
			WHERE a.library_id = ? AND a.checksum_sha1 IN (?, ?)`, args: []any{"lib_a", []byte("a"), []byte("b")}},
		{name: "asset seq by id", sql: `SELECT seq FROM assets WHERE id = ?`, args: []any{"asset_a"}},
		{name: "asset id by seq", sql: `SELECT id FROM assets WHERE seq = ?`, args: []any{int64(7)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			plan := explain(t, conn, c.sql, c.args)
			t.Logf("plan:\n  %s", strings.Join(plan, "\n  "))
			for _, row := range plan {
				require.False(t, fullScan(row) || strings.Contains(row, "TEMP B-TREE"), "plan row %q", row)
			}
			if c.name == "assets by sha1" {
				require.Contains(t, strings.Join(plan, "\n"), "assets_library_sha1")
			}
		})
	}
}
