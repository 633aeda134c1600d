package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"

	"github.com/mattn/go-sqlite3"
)

// FileRef is a blob a database row points at, with the SHA-256 and size
// the row records for it.
type FileRef struct {
	Key    string
	SHA256 []byte
	Size   int64
}

// Snapshot copies the database file at src to dst (which must not exist)
// with SQLite's online backup API: a consistent copy of the last committed
// state, taken beside a running server without its lock (WAL readers never
// block the writer). dst is a single self-contained file (rollback
// journal mode; Open switches it back to WAL), checked with quick_check.
func Snapshot(ctx context.Context, src, dst string) (err error) {
	if _, err := os.Stat(src); err != nil {
		return fmt.Errorf("snapshot database: %w", err)
	}
	if _, err := os.Stat(dst); !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("snapshot database: %s already exists", dst)
	}
	registerDriver()
	from, err := sql.Open(driverName, dsn(src, true))
	if err != nil {
		return fmt.Errorf("open database: %w", err)
	}
	defer from.Close()
	to, err := sql.Open(driverName, "file:"+uriPath.Replace(dst))
	if err != nil {
		return fmt.Errorf("open snapshot: %w", err)
	}
	defer func() {
		if cerr := to.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("close snapshot: %w", cerr)
		}
	}()
	fromConn, err := from.Conn(ctx)
	if err != nil {
		return fmt.Errorf("open database: %w", err)
	}
	defer fromConn.Close()
	toConn, err := to.Conn(ctx)
	if err != nil {
		return fmt.Errorf("open snapshot: %w", err)
	}
	defer toConn.Close()
	err = toConn.Raw(func(tc any) error {
		return fromConn.Raw(func(fc any) error {
			bk, err := tc.(*sqlite3.SQLiteConn).Backup("main", fc.(*sqlite3.SQLiteConn), "main")
			if err != nil {
				return err
			}
			// One step copies every page under one read transaction: the
			// copy is of one committed state, whatever writes meanwhile.
			_, stepErr := bk.Step(-1)
			return errors.Join(stepErr, bk.Finish())
		})
	})
	if err != nil {
		return fmt.Errorf("back up database: %w", err)
	}
	if _, err := toConn.ExecContext(ctx, "PRAGMA journal_mode = DELETE"); err != nil {
		return fmt.Errorf("set snapshot journal mode: %w", err)
	}
	var check string
	if err := toConn.QueryRowContext(ctx, "PRAGMA quick_check").Scan(&check); err != nil || check != "ok" {
		return fmt.Errorf("check snapshot: %q %v", check, err)
	}
	return nil
}

// SnapshotFiles calls fn with each blob the rows of the database file at
// path (a snapshot; opened read-only) point at: every asset's original,
// then every version's file, with the checksums the rows record. The rows
// are read as fn goes, so a library of any size costs one row of memory.
// An error of fn ends the listing and is returned as it is.
func SnapshotFiles(ctx context.Context, path string, fn func(FileRef) error) error {
	db, err := openSnapshot(path)
	if err != nil {
		return err
	}
	defer db.Close()
	// Whole-table reads: a backup visits every row once, off the hot path.
	err = eachRef(ctx, db, "originals", "SELECT id, checksum, original_size FROM assets ORDER BY seq",
		func(rows *sql.Rows) (r FileRef, err error) {
			var id string
			err = rows.Scan(&id, &r.SHA256, &r.Size)
			r.Key = "originals/" + id
			return r, err
		}, fn)
	if err != nil {
		return err
	}
	return eachRef(ctx, db, "versions", "SELECT asset_id, id, revision, checksum, size FROM asset_versions ORDER BY asset_id, id",
		func(rows *sql.Rows) (r FileRef, err error) {
			var assetID, id string
			var rev int
			err = rows.Scan(&assetID, &id, &rev, &r.SHA256, &r.Size)
			// The key rule of assets/versions.go (versionKey).
			r.Key = "versions/" + assetID + "/" + id
			if rev > 0 {
				r.Key += "." + strconv.Itoa(rev)
			}
			return r, err
		}, fn)
}

// SnapshotFileCount returns how many rows of the database file at path (a
// snapshot; opened read-only) SnapshotFiles goes through: assets and
// versions.
func SnapshotFileCount(ctx context.Context, path string) (int64, error) {
	db, err := openSnapshot(path)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	var n int64
	err = db.QueryRowContext(ctx, "SELECT (SELECT count(*) FROM assets) + (SELECT count(*) FROM asset_versions)").Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count snapshot files: %w", err)
	}
	return n, nil
}

// openSnapshot opens the database file at path read-only.
func openSnapshot(path string) (*sql.DB, error) {
	registerDriver()
	db, err := sql.Open(driverName, "file:"+uriPath.Replace(path)+"?mode=ro")
	if err != nil {
		return nil, fmt.Errorf("open snapshot: %w", err)
	}
	return db, nil
}

// eachRef runs query on db and calls fn with each row as scan reads it.
func eachRef(ctx context.Context, db *sql.DB, what, query string, scan func(*sql.Rows) (FileRef, error), fn func(FileRef) error) error {
	rows, err := db.QueryContext(ctx, query)
	if err != nil {
		return fmt.Errorf("list %s: %w", what, err)
	}
	defer rows.Close()
	for rows.Next() {
		r, err := scan(rows)
		if err != nil {
			return fmt.Errorf("list %s: %w", what, err)
		}
		if err := fn(r); err != nil {
			return err
		}
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return fmt.Errorf("list %s: %w", what, err)
	}
	return nil
}
