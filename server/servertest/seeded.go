package servertest

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/devseed"
	"github.com/photoctl/photoctl/server/store"
)

// SeededLibrary describes a benchmark's library: an account and its first
// library seeded by devseed, kept between runs.
type SeededLibrary struct {
	// Dir is the data directory (in .cache, at the repository root).
	Dir             string
	Email, Password string
	// Seed is devseed's options; LibraryID is filled in.
	Seed devseed.Options
	// Finish, when set, adds to the seeded library before it is kept
	// (renderings, say), with its store open.
	Finish func(cfg app.Config, st store.Store, lib *catalog.Library)
}

// DataDir returns l.Dir, seeding it on first use: into Dir+".tmp", renamed
// when complete, so a later run reuses it and an interrupted one starts
// over (delete the folder to seed again).
func (l SeededLibrary) DataDir(tb testing.TB) string {
	tb.Helper()
	if _, err := os.Stat(filepath.Join(l.Dir, "photoctl.db")); err == nil {
		return l.Dir
	}
	tmp := l.Dir + ".tmp"
	require.NoError(tb, os.RemoveAll(tmp))
	ctx := context.Background()
	cfg := app.Defaults(tmp)
	u, err := app.CreateUser(ctx, cfg, app.NewUser{Email: l.Email, Password: l.Password, FirstName: "Bench"})
	require.NoError(tb, err)
	st, err := app.OpenStore(ctx, cfg)
	require.NoError(tb, err)
	lib, err := devseed.FirstOwnedLibrary(ctx, st, u.ID)
	require.NoError(tb, err)
	started := time.Now()
	opts := l.Seed
	opts.LibraryID = lib.ID
	_, err = devseed.Seed(ctx, st, opts)
	require.NoError(tb, err)
	tb.Logf("seeded %d assets in %s", opts.Assets, time.Since(started).Round(time.Second))
	if l.Finish != nil {
		l.Finish(cfg, st, lib)
	}
	require.NoError(tb, st.Close())
	require.NoError(tb, os.Rename(tmp, l.Dir))
	return l.Dir
}
