package sqlite_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/store/sqlite"
)

// benchUsers is how many accounts the benchmarks seed, each with one
// library and one API key, so lookups run against a realistic table size.
const benchUsers = 10_000

// benchBase is the seed's fixed clock.
var benchBase = time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)

// seeded opens a store holding benchUsers users with a library and a key
// each, plus one user who owns perUser libraries; it returns that user's id
// and every key's secret hash.
func seeded(b *testing.B, perUser int) (*sqlite.DB, string, [][]byte) {
	b.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "bench.db"))
	require.NoError(b, err)
	b.Cleanup(func() { db.Close() })
	hashes := make([][]byte, 0, benchUsers)
	var busy string
	err = db.InTx(ctx, func(r store.Repos) error {
		for i := range benchUsers + 1 {
			t := benchBase.Add(time.Duration(i) * time.Second)
			u := &catalog.User{ID: catalog.NewID(catalog.PrefixUser, t), Email: fmt.Sprintf("user%d@example.com", i),
				IsActive: true, CreatedAt: t, UpdatedAt: t}
			if err := r.Users().Create(ctx, u); err != nil {
				return err
			}
			libs := 1
			if i == benchUsers {
				busy, libs = u.ID, perUser
			}
			for j := range libs {
				lt := t.Add(time.Duration(j) * time.Millisecond)
				l := &catalog.Library{ID: catalog.NewID(catalog.PrefixLibrary, lt), Name: fmt.Sprintf("library %d", j),
					OwnerID: u.ID, CreatedAt: lt, UpdatedAt: lt}
				if err := r.Libraries().Create(ctx, l); err != nil {
					return err
				}
			}
			k := &catalog.APIKey{ID: catalog.NewID(catalog.PrefixAPIKey, t), UserID: u.ID, Name: "script",
				SecretHash: []byte(fmt.Sprintf("secret hash %08d", i)), CreatedAt: t, UpdatedAt: t,
				Scope: catalog.Scope{Actions: []catalog.Action{catalog.ActionAll}}}
			if err := r.APIKeys().Create(ctx, k); err != nil {
				return err
			}
			hashes = append(hashes, k.SecretHash)
		}
		return nil
	})
	require.NoError(b, err)
	return db, busy, hashes
}

// BenchmarkListLibrariesPage reads one page of 20 libraries of a user who
// belongs to 200, among 10k users: the first page and one after a cursor.
func BenchmarkListLibrariesPage(b *testing.B) {
	ctx := context.Background()
	db, userID, _ := seeded(b, 200)
	f := query.LibraryFilter{UserID: userID}
	first, more, err := db.Read().Libraries().ListForUser(ctx, f, query.Page{Limit: 20})
	require.NoError(b, err)
	require.True(b, more)
	for _, bc := range []struct {
		name  string
		after string
	}{{"first page", ""}, {"after a cursor", first[len(first)-1].Library.ID}} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				page, _, err := db.Read().Libraries().ListForUser(ctx, f, query.Page{Limit: 20, AfterID: bc.after})
				if err != nil || len(page) != 20 {
					b.Fatalf("page of %d: %v", len(page), err)
				}
			}
		})
	}
}

// BenchmarkAPIKeyByHash resolves API keys, with their users, by secret
// hash among 10k keys, as every API-key request does.
func BenchmarkAPIKeyByHash(b *testing.B) {
	ctx := context.Background()
	db, _, hashes := seeded(b, 1)
	i := 0
	for b.Loop() {
		if _, _, err := db.Read().APIKeys().GetByHash(ctx, hashes[i%len(hashes)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
