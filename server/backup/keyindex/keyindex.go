// Package keyindex is a scratch map from string keys to byte values in a
// file of its own, for work over more keys than should be held in memory:
// the files of a backup's manifests and a bucket's keys in copy-blobs
// (millions in a large library). It is a SQLite file (go-sqlite3), but not
// the store: no schema of the library's, no durability.
package keyindex

import (
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	_ "github.com/mattn/go-sqlite3" // the "sqlite3" driver
)

// batch is how many writes an Index commits at once.
const batch = 20000

// Index is a scratch map from string keys to byte values in a file of
// its own, for work over more keys than should be held in memory (the
// files of a backup's manifests: millions in a large library). It is not
// durable (no journal, no fsync: a crash leaves a file to delete) and not
// safe for concurrent use.
type Index struct {
	path           string
	db             *sql.DB
	tx             *sql.Tx
	put, get, take *sql.Stmt
	pending        int
}

// Open creates an empty index at path, replacing any file there
// (one a crash left).
func Open(path string) (*Index, error) {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("open index: %w", err)
	}
	db, err := sql.Open("sqlite3", "file:"+uriPath.Replace(path)+"?_journal_mode=OFF&_synchronous=OFF")
	if err != nil {
		return nil, fmt.Errorf("open index: %w", err)
	}
	db.SetMaxOpenConns(1) // one connection: its transaction sees its own writes
	x := &Index{path: path, db: db}
	// Pages through the small page cache, not mapped (the driver maps
	// databases whole): the index may outgrow memory, and should not look
	// like the process's own.
	_, err = db.Exec(`PRAGMA mmap_size = 0`)
	if err == nil {
		_, err = db.Exec(`CREATE TABLE entries (key TEXT PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID`)
	}
	if err != nil {
		x.Close()
		return nil, fmt.Errorf("open index: %w", err)
	}
	if err := x.begin(); err != nil {
		x.Close()
		return nil, err
	}
	return x, nil
}

func (x *Index) begin() error {
	tx, err := x.db.Begin()
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	x.tx, x.pending = tx, 0
	if x.put, err = tx.Prepare(`INSERT OR REPLACE INTO entries (key, value) VALUES (?, ?)`); err == nil {
		x.get, err = tx.Prepare(`SELECT value FROM entries WHERE key = ?`)
	}
	if err == nil {
		x.take, err = tx.Prepare(`DELETE FROM entries WHERE key = ? RETURNING value`)
	}
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	return nil
}

// Put sets key's value (nil is stored as empty).
func (x *Index) Put(key string, value []byte) error {
	if value == nil {
		value = []byte{}
	}
	if _, err := x.put.Exec(key, value); err != nil {
		return fmt.Errorf("index %s: %w", key, err)
	}
	return x.written()
}

// written counts a write, and commits the batch when it is full.
func (x *Index) written() error {
	if x.pending++; x.pending < batch {
		return nil
	}
	// Commit now and then, so the index's pages leave memory.
	if err := x.tx.Commit(); err != nil {
		return fmt.Errorf("index: %w", err)
	}
	return x.begin()
}

// Get returns key's value, and whether the index holds key.
func (x *Index) Get(key string) ([]byte, bool, error) { return lookup(x.get, key) }

// Take returns key's value and removes key, and whether the index held it.
func (x *Index) Take(key string) ([]byte, bool, error) {
	v, ok, err := lookup(x.take, key)
	if ok && err == nil {
		err = x.written()
	}
	return v, ok, err
}

// lookup runs stmt, which returns key's value, if any.
func lookup(stmt *sql.Stmt, key string) ([]byte, bool, error) {
	var v []byte
	err := stmt.QueryRow(key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("index %s: %w", key, err)
	}
	return v, true, nil
}

// Each calls fn with every key and value, in key order, until fn fails.
// fn must not change the index.
func (x *Index) Each(fn func(key string, value []byte) error) error {
	rows, err := x.tx.Query(`SELECT key, value FROM entries ORDER BY key`)
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var key string
		var v []byte
		if err := rows.Scan(&key, &v); err != nil {
			return fmt.Errorf("index: %w", err)
		}
		if err := fn(key, v); err != nil {
			return err
		}
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return fmt.Errorf("index: %w", err)
	}
	return nil
}

// Close closes the index and deletes its file.
func (x *Index) Close() error {
	if x.tx != nil {
		_ = x.tx.Rollback()
	}
	err := x.db.Close()
	if rerr := os.Remove(x.path); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
		err = errors.Join(err, rerr)
	}
	if err != nil {
		return fmt.Errorf("close index: %w", err)
	}
	return nil
}

// uriPath escapes the characters that end or alter the path of a file: URI.
var uriPath = strings.NewReplacer("%", "%25", "?", "%3F", "#", "%23")
