package pgtest

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Main runs the package's tests and then drops the template database and
// stops the cluster this process started. Call it from TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }
func Main(m *testing.M) int {
	inMain.Store(true)
	code := m.Run()
	if admin != nil {
		close(drops)
		dropping.Wait()
		if template != "" {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			_, _ = admin.Exec(ctx, "DROP DATABASE IF EXISTS "+quoteIdent(template)+" WITH (FORCE)")
			cancel()
		}
		admin.Close()
	}
	if started != nil {
		started.stop()
	}
	return code
}

var (
	adminOnce sync.Once
	admin     *pgxpool.Pool
	adminErr  error

	templateOnce sync.Once
	template     string
	templateErr  error

	serial atomic.Int64
	inMain atomic.Bool

	// drops takes the names of finished tests' databases; one goroutine
	// drops them while later tests run (a drop forces a checkpoint).
	drops    = make(chan string, 1024)
	dropping sync.WaitGroup
)

// dropLoop drops the databases sent on drops until Main closes it.
func dropLoop() {
	defer dropping.Done()
	for name := range drops {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		if _, err := admin.Exec(ctx, "DROP DATABASE IF EXISTS "+quoteIdent(name)+" WITH (FORCE)"); err != nil {
			fmt.Fprintf(os.Stderr, "pgtest: drop test database %s: %v\n", name, err)
		}
		cancel()
	}
}

// NewURL returns the URL of a new, empty database that prepare has already
// run on (migrations, typically), and drops the database when t ends.
// prepare runs once per process, on a template database that every new
// database copies (CREATE DATABASE ... TEMPLATE), which is much faster than
// migrating each one.
func NewURL(t testing.TB, prepare func(ctx context.Context, url string) error) string {
	t.Helper()
	return newURL(t, prepare, "")
}

// newURL creates a database from the given template; "" means the
// process's template, prepared on first use by prepare.
func newURL(t testing.TB, prepare func(ctx context.Context, url string) error, from string) string {
	t.Helper()
	if !inMain.Load() {
		t.Fatal("pgtest: call pgtest.Main from the package's TestMain (it stops the cluster and drops databases)")
	}
	base, skip, err := server()
	if skip != "" {
		if os.Getenv("PHOTOCTL_POSTGRES_REQUIRED") == "1" {
			t.Fatalf("PHOTOCTL_POSTGRES_REQUIRED=1 but %s", skip)
		}
		t.Skip(skip)
	}
	if err != nil {
		t.Fatalf("start postgres: %v", err)
	}
	adminOnce.Do(func() {
		if admin, adminErr = pgxpool.New(context.Background(), base); adminErr == nil {
			dropping.Add(1)
			go dropLoop()
		}
	})
	if adminErr != nil {
		t.Fatalf("connect to postgres: %v", adminErr)
	}
	if from == "" {
		from = prepared(t, base, prepare)
	}
	name := fmt.Sprintf("photoctl_t_%d_%d", os.Getpid(), serial.Add(1))
	if err := createDatabase(name, from); err != nil {
		t.Fatalf("create test database: %v", err)
	}
	t.Cleanup(func() { drops <- name })
	return withDatabase(base, name)
}

// prepared returns the process's template database, creating it and
// running prepare on it on first use.
func prepared(t testing.TB, base string, prepare func(ctx context.Context, url string) error) string {
	t.Helper()
	templateOnce.Do(func() {
		name := fmt.Sprintf("photoctl_tpl_%d_%d", os.Getpid(), time.Now().UnixNano())
		if templateErr = createDatabase(name, ""); templateErr != nil {
			return
		}
		template = name
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		templateErr = prepare(ctx, withDatabase(base, name))
	})
	if templateErr != nil {
		t.Fatalf("prepare template database: %v", templateErr)
	}
	return template
}

// EmptyURL returns the URL of a new database with nothing in it (a copy
// of template0), dropped when t ends: for tests of migrations themselves.
func EmptyURL(t testing.TB) string {
	t.Helper()
	return newURL(t, nil, "template0")
}

// createDatabase creates a database, as a copy of template unless it is "".
func createDatabase(name, template string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	sql := "CREATE DATABASE " + quoteIdent(name)
	if template != "" {
		sql += " TEMPLATE " + quoteIdent(template)
	}
	// FILE_COPY (PostgreSQL 15+) copies the template's files instead of
	// logging every page: several times faster for small test databases.
	if _, err := admin.Exec(ctx, sql+" STRATEGY FILE_COPY"); err == nil || !strings.Contains(err.Error(), "strategy") {
		return err
	}
	_, err := admin.Exec(ctx, sql) // an older server without STRATEGY
	return err
}

// withDatabase returns base with its database name replaced.
func withDatabase(base, name string) string {
	u, err := url.Parse(base)
	if err != nil {
		return base // a keyword/value string: left for pgx to reject clearly
	}
	u.Path = "/" + name
	return u.String()
}
