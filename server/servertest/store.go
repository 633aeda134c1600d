package servertest

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/store/postgres"
	"github.com/photoctl/photoctl/server/store/postgres/pgtest"
)

// StoreEnv names the environment variable that picks the store every
// server and store of the harness runs on: "postgres" selects PostgreSQL (a
// fresh database per server or store, from pgtest: on the server named by
// PHOTOCTL_TEST_DATABASE_URL, or a throwaway cluster pgtest starts);
// anything else, or nothing, selects SQLite (a fresh file per server).
const StoreEnv = "PHOTOCTL_TEST_STORE"

// Postgres reports whether the tests run on PostgreSQL.
func Postgres() bool { return os.Getenv(StoreEnv) == "postgres" }

// Main runs a package's tests. Every package whose tests start a server or
// open a store through this harness calls it from its TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(servertest.Main(m)) }
//
// It hands over to pgtest.Main, which drops the test databases and stops a
// cluster pgtest started (on SQLite, unless a test asked for PostgreSQL
// itself through PostgresURL, there is none and it only runs m).
func Main(m *testing.M) int { return pgtest.Main(m) }

// PostgresURL returns the URL of a new migrated PostgreSQL database,
// dropped when t ends, whichever store the tests run on: for tests that
// need both stores (admin migrate). It skips without PostgreSQL unless
// PHOTOCTL_POSTGRES_REQUIRED=1.
func PostgresURL(t testing.TB) string {
	t.Helper()
	return pgtest.NewURL(t, migratePostgres)
}

// SkipOnPostgres skips a test that only makes sense on SQLite (it reads the
// database file itself, or exercises a SQLite-only feature), saying why.
func SkipOnPostgres(t testing.TB, why string) {
	t.Helper()
	if Postgres() {
		t.Skipf("SQLite only: %s", why)
	}
}

// SkipStoreNeutralOnPostgres skips, on the PostgreSQL pass, a long test
// whose subject is not the store (how media are decoded and compared, how
// the CLI parses): what it asks of the store, other tests that run on
// both stores ask too, and the SQLite pass runs it. It keeps that pass,
// which repeats every package that runs a store, to what the choice of
// store changes.
func SkipStoreNeutralOnPostgres(t testing.TB, subject string) {
	t.Helper()
	if Postgres() {
		t.Skipf("store-neutral (%s): the SQLite pass runs it", subject)
	}
}

// useDatabase points cfg at the database of its data directory: on SQLite
// the default file in cfg.DataDir (nothing to do); on PostgreSQL a new
// migrated database on the data directory's first use in this process
// (dropped when t ends), the same one for a later server on that directory.
// A Database.URL the test set itself is kept.
func useDatabase(t testing.TB, cfg *app.Config) {
	t.Helper()
	if !Postgres() || cfg.Database.URL != "" {
		return
	}
	databases.Lock()
	defer databases.Unlock()
	if databases.byDir == nil {
		databases.byDir = map[string]app.Secret{}
	}
	url, ok := databases.byDir[cfg.DataDir]
	if !ok {
		url = app.Secret(PostgresURL(t))
		databases.byDir[cfg.DataDir] = url
		dir := cfg.DataDir
		t.Cleanup(func() {
			databases.Lock()
			delete(databases.byDir, dir)
			databases.Unlock()
		})
	}
	cfg.Database.URL = url
}

// databases maps data directories to their PostgreSQL databases.
var databases struct {
	sync.Mutex
	byDir map[string]app.Secret
}

// NewStore opens a fresh, migrated store of the selected kind, closed when
// t ends: for tests of services that need a store but no server.
func NewStore(t testing.TB) store.Store {
	t.Helper()
	return OpenStore(t, StoreConfig(t))
}

// StoreConfig returns a configuration naming a fresh database of the
// selected store (in a new temporary data directory), for tests that open
// it more than once, as several processes would.
func StoreConfig(t testing.TB) app.Config {
	t.Helper()
	cfg := app.Defaults(t.TempDir())
	cfg.Auth.PasswordCost = PasswordCost
	useDatabase(t, &cfg)
	return cfg
}

// DatabaseEnv returns the environment a photoctl process the test runs
// needs to use a fresh database of the selected store: on PostgreSQL
// PHOTOCTL_DATABASE_URL naming a new migrated database (dropped when t
// ends), on SQLite nothing (the file in the data directory).
func DatabaseEnv(t testing.TB) []string {
	t.Helper()
	if !Postgres() {
		return nil
	}
	return []string{"PHOTOCTL_DATABASE_URL=" + PostgresURL(t)}
}

// DatabaseEnv returns the environment a photoctl process (worker, admin
// command) needs to open this server's database beside it: on PostgreSQL
// PHOTOCTL_DATABASE_URL, on SQLite nothing (it finds the file through
// --data-dir). Appended after DatabaseEnv(t), it wins (os/exec keeps the
// last value of a variable).
func (s *Server) DatabaseEnv() []string {
	if !s.Config.Database.Postgres() {
		return nil
	}
	return []string{"PHOTOCTL_DATABASE_URL=" + string(s.Config.Database.URL)}
}

// OpenStore opens the store cfg names (the one a server of the harness
// runs on: OpenStore(t, s.Config)), closed when t ends. It goes through
// app.OpenStore, so it works on either store.
func OpenStore(t testing.TB, cfg app.Config) store.Store {
	t.Helper()
	st, err := app.OpenStore(context.Background(), cfg)
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	return st
}

// SQLitePath returns the SQLite file of a server started with cfg; on
// PostgreSQL it skips the test, giving why.
func SQLitePath(t testing.TB, cfg app.Config, why string) string {
	t.Helper()
	SkipOnPostgres(t, why)
	return filepath.Join(cfg.DataDir, "photoctl.db")
}

// migratePostgres applies the store's migrations to the template database
// pgtest copies for every test.
func migratePostgres(ctx context.Context, url string) error {
	db, err := postgres.Open(ctx, url)
	if err != nil {
		return err
	}
	return db.Close()
}
