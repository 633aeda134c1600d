package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/store/postgres"
	"github.com/photoctl/photoctl/server/store/sqlite"
)

// sqliteFile is the SQLite database's name in the data directory.
const sqliteFile = "photoctl.db"

// Store kinds database.url selects.
const (
	DialectSQLite   = "sqlite"
	DialectPostgres = "postgres"
)

// Dialect returns which store the URL selects: SQLite for "" and
// sqlite://PATH, PostgreSQL for postgres:// and postgresql://, or an error
// naming what is accepted.
func (c DatabaseConfig) Dialect() (string, error) {
	u := string(c.URL)
	switch {
	case u == "" || strings.HasPrefix(u, "sqlite://"):
		return DialectSQLite, nil
	case strings.HasPrefix(u, "postgres://") || strings.HasPrefix(u, "postgresql://"):
		return DialectPostgres, nil
	}
	scheme, _, ok := strings.Cut(u, "://")
	if !ok {
		scheme = "no scheme"
	}
	return "", fmt.Errorf("database.url: unsupported database (%s): want sqlite://PATH or postgres://USER@HOST/DB, "+
		"or leave it empty for the SQLite database in the data directory", scheme)
}

// Postgres reports whether the URL selects PostgreSQL.
func (c DatabaseConfig) Postgres() bool {
	d, err := c.Dialect()
	return err == nil && d == DialectPostgres
}

// SQLitePath returns the SQLite file the configuration names: the path of
// a sqlite:// URL, else photoctl.db in dataDir. It is "" on PostgreSQL.
func (c DatabaseConfig) SQLitePath(dataDir string) string {
	if c.Postgres() {
		return ""
	}
	if p := strings.TrimPrefix(string(c.URL), "sqlite://"); p != "" {
		return p
	}
	return filepath.Join(dataDir, sqliteFile)
}

// RequireDataDirSQLite returns an error, naming what, unless cfg's
// database is the SQLite file in its data directory: for the tools that
// read that file themselves (admin backup and restore take a SQLite
// snapshot; on PostgreSQL, back the database up with pg_dump and the data
// directory with any file copy).
func RequireDataDirSQLite(cfg Config, what string) error {
	switch {
	case cfg.Storage.Remote():
		return fmt.Errorf("%s is not supported with the blobs in a bucket (storage.s3): keep the bucket's own "+
			"versions or replicas, and back up the database apart", what)
	case cfg.Database.Postgres():
		return fmt.Errorf("%s is not supported on PostgreSQL (database.url): use pg_dump for the database "+
			"and copy the data directory's files", what)
	case cfg.Database.SQLitePath(cfg.DataDir) != filepath.Join(cfg.DataDir, sqliteFile):
		return fmt.Errorf("%s supports only the SQLite database in the data directory, not %s (database.url)",
			what, cfg.Database.SQLitePath(cfg.DataDir))
	}
	return nil
}

// OpenStore opens (creating and migrating) the database of cfg: the one
// place that knows where it lives. database.url selects it: "" is
// photoctl.db in the data directory, sqlite://PATH a SQLite file elsewhere,
// postgres:// (or postgresql://) a PostgreSQL database. Originals and
// variants stay in the data directory in every case: processes sharing a
// PostgreSQL database must share the data directory too.
func OpenStore(ctx context.Context, cfg Config) (store.Store, error) {
	dialect, err := cfg.Database.Dialect()
	if err != nil {
		return nil, err
	}
	if dialect == DialectSQLite {
		// A binary built without FTS5 stops here, before the data
		// directory exists.
		if err := sqlite.CheckFTS5(); err != nil {
			return nil, err
		}
	}
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("create data directory: %w", err)
	}
	if dialect == DialectPostgres {
		db, err := postgres.Open(ctx, string(cfg.Database.URL))
		if err != nil {
			return nil, fmt.Errorf("open postgres database: %w", err)
		}
		return db, nil
	}
	return sqlite.Open(ctx, cfg.Database.SQLitePath(cfg.DataDir))
}
