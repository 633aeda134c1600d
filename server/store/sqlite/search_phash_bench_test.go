package sqlite_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/store/sqlite"
)

// benchPHashAssets is how many measured assets the pHash benchmark seeds.
const benchPHashAssets = 20_000

// probes returns the band values image search probes for hashes: each
// band's value and its 16 one-bit neighbours (server/search phashBands).
func probes(hashes ...uint64) [4][]string {
	var out [4][]string
	for _, h := range hashes {
		for i := range out {
			v := uint16(h >> (48 - 16*i))
			out[i] = append(out[i], fmt.Sprintf("%04x", v))
			for bit := range 16 {
				out[i] = append(out[i], fmt.Sprintf("%04x", v^(1<<bit)))
			}
		}
	}
	return out
}

// BenchmarkPHashCandidates is the store's part of an image search's looks
// in a library of 20k measured assets with random hashes: before crops
// were hashed (the image's hash probed in the assets' own), and after
// (the image's and its mirror's probed in the assets' own and in seven
// crop hashes per asset, 140k rows).
func BenchmarkPHashCandidates(b *testing.B) {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "bench.db"))
	require.NoError(b, err)
	b.Cleanup(func() { db.Close() })
	rng := rand.New(rand.NewPCG(7, 11))
	u := &catalog.User{ID: catalog.NewID(catalog.PrefixUser, benchBase), Email: "a@example.com", IsActive: true,
		CreatedAt: benchBase, UpdatedAt: benchBase}
	lib := &catalog.Library{ID: catalog.NewID(catalog.PrefixLibrary, benchBase), Name: "photos", OwnerID: u.ID,
		CreatedAt: benchBase, UpdatedAt: benchBase}
	ids := make([]string, benchPHashAssets)
	require.NoError(b, db.InTx(ctx, func(r store.Repos) error {
		if err := r.Users().Create(ctx, u); err != nil {
			return err
		}
		if err := r.Libraries().Create(ctx, lib); err != nil {
			return err
		}
		for i := range ids {
			t := benchBase.Add(time.Duration(i) * time.Millisecond)
			a := &catalog.Asset{ID: catalog.NewID(catalog.PrefixAsset, t), LibraryID: lib.ID, ContributorID: u.ID,
				MediaType: catalog.MediaImage, MIMEType: "image/jpeg", OriginalFileName: fmt.Sprintf("%d.jpg", i),
				FileCreatedAt: t, FileModifiedAt: t, Capture: catalog.CaptureTime{Wall: t},
				Checksum: []byte(fmt.Sprintf("checksum %d", i)), OriginalSize: 1, FileSizeBytes: 1,
				Metrics: map[string]any{"phash": fmt.Sprintf("%016x", rng.Uint64()), "colors": "0123"}, CreatedAt: t, UpdatedAt: t}
			if err := r.Assets().Create(ctx, a); err != nil {
				return err
			}
			ids[i] = a.ID
		}
		return nil
	}))
	query, mirror := rng.Uint64(), rng.Uint64()
	run := func(name string, bands [4][]string) {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				_, err := db.Read().Search().PHashCandidates(ctx, lib.ID, bands, 5000)
				require.NoError(b, err)
			}
		})
	}
	run("before", probes(query))
	require.NoError(b, db.InTx(ctx, func(r store.Repos) error {
		for _, id := range ids {
			crops := make([]store.KindPHash, 7)
			for i := range crops {
				crops[i] = store.KindPHash{Kind: fmt.Sprintf("k%d", i), PHash: fmt.Sprintf("%016x", rng.Uint64())}
			}
			if err := r.Search().PutPHashes(ctx, id, crops); err != nil {
				return err
			}
		}
		return nil
	}))
	run("after", probes(query, mirror))
}
