package app_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/servertest"
	"github.com/photoctl/photoctl/server/store/postgres"
	"github.com/photoctl/photoctl/server/store/sqlite"
)

func TestDatabaseURLSelectsTheStore(t *testing.T) {
	t.Run("empty is the SQLite file in the data directory", func(t *testing.T) {
		cfg := app.Defaults(t.TempDir())
		st := servertest.OpenStore(t, cfg)
		require.IsType(t, &sqlite.DB{}, st)
		require.FileExists(t, filepath.Join(cfg.DataDir, "photoctl.db"))
	})
	t.Run("sqlite://PATH is a SQLite file elsewhere", func(t *testing.T) {
		cfg := app.Defaults(t.TempDir())
		path := filepath.Join(t.TempDir(), "elsewhere.db")
		cfg.Database.URL = app.Secret("sqlite://" + path)
		require.NoError(t, cfg.Validate())
		st := servertest.OpenStore(t, cfg)
		require.IsType(t, &sqlite.DB{}, st)
		require.FileExists(t, path)
		require.NoFileExists(t, filepath.Join(cfg.DataDir, "photoctl.db"))
	})
	t.Run("postgres:// is PostgreSQL", func(t *testing.T) {
		if !servertest.Postgres() {
			t.Skip("needs " + servertest.StoreEnv + "=postgres (a PostgreSQL server for the test)")
		}
		cfg := servertest.StoreConfig(t)
		require.True(t, cfg.Database.Postgres())
		st := servertest.OpenStore(t, cfg)
		require.IsType(t, &postgres.DB{}, st)
		require.NoFileExists(t, filepath.Join(cfg.DataDir, "photoctl.db"))
	})
	t.Run("another scheme is refused, by Validate and OpenStore", func(t *testing.T) {
		cfg := app.Defaults(t.TempDir())
		cfg.Database.URL = "mysql://db/photos"
		require.ErrorContains(t, cfg.Validate(), "database.url: unsupported database (mysql)")
		_, err := app.OpenStore(t.Context(), cfg)
		require.ErrorContains(t, err, "want sqlite://PATH or postgres://")
	})
}

func TestDatabaseURLDialect(t *testing.T) {
	for url, want := range map[string]string{
		"":                                  app.DialectSQLite,
		"sqlite:///srv/photoctl/library.db": app.DialectSQLite,
		"postgres://u@db:5432/photos":       app.DialectPostgres,
		"postgresql://u@db/photos?sslmode=require": app.DialectPostgres,
		"/srv/photoctl/photoctl.db":                "",
		"mysql://db":                               "",
	} {
		got, err := app.DatabaseConfig{URL: app.Secret(url)}.Dialect()
		require.Equal(t, want, got, url)
		require.Equal(t, want == "", err != nil, "%s: %v", url, err)
	}
}

func TestSQLiteOnlyToolsRefuseOtherDatabases(t *testing.T) {
	cfg := app.Defaults("/srv/photoctl")
	require.NoError(t, app.RequireDataDirSQLite(cfg, "admin backup"))
	cfg.Database.URL = "sqlite:///srv/photoctl/photoctl.db"
	require.NoError(t, app.RequireDataDirSQLite(cfg, "admin backup"))

	cfg.Database.URL = "postgres://photoctl:hunter2@db/photos"
	err := app.RequireDataDirSQLite(cfg, "admin backup")
	require.ErrorContains(t, err, "admin backup is not supported on PostgreSQL")
	require.ErrorContains(t, err, "pg_dump")
	require.NotContains(t, err.Error(), "hunter2")

	cfg.Database.URL = "sqlite:///mnt/other.db"
	require.ErrorContains(t, app.RequireDataDirSQLite(cfg, "admin restore"),
		"admin restore supports only the SQLite database in the data directory")
}
