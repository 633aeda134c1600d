// Package sqlite implements the store interfaces on SQLite through
// mattn/go-sqlite3. It is the only package that imports the driver.
//
// One writer connection serialises writes, InTx and InLibraryTx alike
// (SQLite allows one writer at a time; queuing in Go is cheaper than
// busy-waiting in SQLite), and a pool of read-only connections serves reads
// concurrently under WAL.
package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/mattn/go-sqlite3"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/store/sqlstore"
)

// driverName is go-sqlite3 with photoctl's SQL functions registered on
// every connection.
const driverName = "photoctl_sqlite3"

var registerDriver = sync.OnceFunc(func() {
	sql.Register(driverName, patientDriver{&sqlite3.SQLiteDriver{ConnectHook: func(c *sqlite3.SQLiteConn) error {
		// Memory-mapped reads: large scans (fallback aggregates, big
		// viewports) read pages from the OS page cache without copying.
		if _, err := c.Exec("PRAGMA mmap_size = 2147418112", nil); err != nil {
			return err
		}
		// geo_distance(lon1, lat1, lon2, lat2): great-circle metres.
		if err := c.RegisterFunc("geo_distance", catalog.DistanceMeters, true); err != nil {
			return err
		}
		// casefold(s): Unicode lower case (SQLite's lower() folds ASCII only).
		return c.RegisterFunc("casefold", strings.ToLower, true)
	}}})
})

// patientDriver opens connections as go-sqlite3 does, but waits out
// SQLITE_BUSY at open. The busy timeout does not cover it: when the last
// connection of another process closes, it holds an exclusive lock while it
// checkpoints and removes the WAL, and a connection opening meanwhile gets
// SQLITE_BUSY at once from its first read (https://sqlite.org/wal.html,
// "Sometimes Queries Return SQLITE_BUSY In WAL Mode"), as when serve starts
// while an admin command ends.
type patientDriver struct{ *sqlite3.SQLiteDriver }

// openBusyWait matches the connections' _busy_timeout.
const openBusyWait = 10 * time.Second

func (d patientDriver) Open(dsn string) (driver.Conn, error) {
	deadline := time.Now().Add(openBusyWait)
	for pause := time.Millisecond; ; pause = min(2*pause, 50*time.Millisecond) {
		c, err := d.SQLiteDriver.Open(dsn)
		var e sqlite3.Error
		if err == nil || !errors.As(err, &e) || e.Code != sqlite3.ErrBusy || time.Now().After(deadline) {
			return c, err
		}
		time.Sleep(pause)
	}
}

// DB is a SQLite store.
type DB struct {
	writer *sql.DB
	reader *sql.DB
	// reads is the reader pool with its statements cached.
	reads *stmtCache
}

var _ store.Store = (*DB)(nil)

// Open opens (creating if needed) the database file at path and applies
// pending migrations. A SQLite without FTS5 is ErrNoFTS5, with nothing
// created.
func Open(ctx context.Context, path string) (*DB, error) {
	if err := CheckFTS5(); err != nil {
		return nil, err // before the file exists: no half-made database
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("create database folder: %w", err)
	}
	registerDriver()
	writer, err := sql.Open(driverName, dsn(path, false))
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	writer.SetMaxOpenConns(1)
	writer.SetConnMaxLifetime(0)
	if err := migrate(ctx, writer); err != nil {
		writer.Close()
		return nil, err
	}
	reader, err := sql.Open(driverName, dsn(path, true))
	if err != nil {
		writer.Close()
		return nil, fmt.Errorf("open database readers: %w", err)
	}
	n := max(4, 2*runtime.NumCPU())
	reader.SetMaxOpenConns(n)
	reader.SetMaxIdleConns(n)
	return &DB{writer: writer, reader: reader, reads: newStmtCache(reader)}, nil
}

// dsn holds every pragma in one place: WAL for concurrent readers, foreign
// keys, a busy timeout for other processes (workers, admin commands), and
// NORMAL sync, which in WAL mode loses no committed transaction on a process
// crash (only, at worst, the last ones on power loss).
func dsn(path string, readOnly bool) string {
	q := url.Values{}
	q.Set("_journal_mode", "WAL")
	q.Set("_foreign_keys", "on")
	q.Set("_busy_timeout", "10000")
	q.Set("_synchronous", "NORMAL")
	q.Set("_cache_size", "-32000")
	if readOnly {
		q.Set("_query_only", "on")
	} else {
		q.Set("_txlock", "immediate")
	}
	return "file:" + uriPath.Replace(path) + "?" + q.Encode()
}

// uriPath escapes the characters that end or alter the path of a file: URI.
var uriPath = strings.NewReplacer("%", "%25", "?", "%3F", "#", "%23")

// Read returns repositories over the reader pool.
func (db *DB) Read() store.Repos { return newRepos(db.reads) }

// InTx runs fn in a write transaction.
func (db *DB) InTx(ctx context.Context, fn func(store.Repos) error) (err error) {
	tx, err := db.writer.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin transaction: %w", translate(err))
	}
	committed := false
	defer func() {
		// Roll back on an error, a panic, or runtime.Goexit (t.FailNow in a
		// test): anything but a commit must release the single writer.
		if !committed {
			_ = tx.Rollback()
		}
		if p := recover(); p != nil {
			panic(p)
		}
	}()
	if err = fn(newRepos(tx)); err != nil {
		return err
	}
	if err = tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", translate(err))
	}
	committed = true
	return nil
}

// InLibraryTx is InTx: the single writer runs every write transaction one
// at a time, so a library's transactions need no lock of their own.
func (db *DB) InLibraryTx(ctx context.Context, _ string, fn func(store.Repos) error) error {
	return db.InTx(ctx, fn)
}

// Close closes both pools.
func (db *DB) Close() error {
	rerr := errors.Join(db.reads.Close(), db.reader.Close())
	if err := db.writer.Close(); err != nil {
		return err
	}
	return rerr
}

// querier is what both *sql.DB and *sql.Tx offer.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// repos are this package's repositories over q and, embedded, the ones
// written once for both dialects.
type repos struct {
	q querier
	sqlstore.Repos
}
