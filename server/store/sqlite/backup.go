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

// SnapshotFiles lists the blobs the rows of the database file at path
// (a snapshot; opened read-only) point at: every asset's original and
// every version's file, with the checksums the rows record.
func SnapshotFiles(ctx context.Context, path string) ([]FileRef, error) {
	registerDriver()
	db, err := sql.Open(driverName, "file:"+uriPath.Replace(path)+"?mode=ro")
	if err != nil {
		return nil, fmt.Errorf("open snapshot: %w", err)
	}
	defer db.Close()
	// Whole-table reads: a backup visits every row once, off the hot path.
	var refs []FileRef
	rows, err := db.QueryContext(ctx, "SELECT id, checksum, original_size FROM assets ORDER BY seq")
	if err != nil {
		return nil, fmt.Errorf("list originals: %w", err)
	}
	for rows.Next() {
		var id string
		var r FileRef
		if err := rows.Scan(&id, &r.SHA256, &r.Size); err != nil {
			rows.Close()
			return nil, fmt.Errorf("list originals: %w", err)
		}
		r.Key = "originals/" + id
		refs = append(refs, r)
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return nil, fmt.Errorf("list originals: %w", err)
	}
	rows, err = db.QueryContext(ctx, "SELECT asset_id, id, revision, checksum, size FROM asset_versions ORDER BY asset_id, id")
	if err != nil {
		return nil, fmt.Errorf("list versions: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var assetID, id string
		var rev int
		var r FileRef
		if err := rows.Scan(&assetID, &id, &rev, &r.SHA256, &r.Size); err != nil {
			return nil, fmt.Errorf("list versions: %w", err)
		}
		// The key rule of assets/versions.go (versionKey).
		r.Key = "versions/" + assetID + "/" + id
		if rev > 0 {
			r.Key += "." + strconv.Itoa(rev)
		}
		refs = append(refs, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list versions: %w", err)
	}
	return refs, nil
}
