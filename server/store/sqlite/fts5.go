package sqlite

import (
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
)

// ErrNoFTS5 means the SQLite this binary links has no FTS5, which content
// search's tables need (migration 0013): go-sqlite3 compiles it in only
// under the sqlite_fts5 build tag, so `go install ./cmd/photoctl` without
// it builds a photoctl that cannot open its database. The message says how
// to build one that can.
var ErrNoFTS5 = errors.New("this photoctl was built without SQLite FTS5, which its database needs: " +
	"build it with `make build`, or `go install -tags sqlite_fts5 ./cmd/photoctl`")

// CheckFTS5 returns ErrNoFTS5 unless the linked SQLite can create an FTS5
// table. It asks SQLite itself, on a throwaway in-memory database, so a
// build against a system SQLite (the libsqlite3 tag) that has FTS5 passes
// too. Open calls it before touching the file; callers that create other
// state first (the data directory) call it before that.
func CheckFTS5() error { return checkFTS5() }

var checkFTS5 = sync.OnceValue(func() error {
	registerDriver()
	db, err := sql.Open(driverName, ":memory:")
	if err != nil {
		return fmt.Errorf("check sqlite fts5: %w", err)
	}
	defer db.Close()
	_, err = db.Exec("CREATE VIRTUAL TABLE temp.fts5_probe USING fts5(x)")
	switch {
	case err == nil:
		return nil
	case strings.Contains(err.Error(), "no such module"):
		return ErrNoFTS5
	default:
		return fmt.Errorf("check sqlite fts5: %w", err)
	}
})
