package sqlstore

import (
	"context"
	"hash/fnv"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

type events struct{ q Q }

func (r Repos) Events() store.Events { return events{r.Q} }

var _ store.Events = events{}

func (s events) Append(ctx context.Context, e *catalog.Event) error {
	data := e.Data
	if len(data) == 0 {
		data = []byte("{}")
	}
	// Ids follow commit order in each library's feed (feeds are per
	// library). SQLite runs one writer at a time; in PostgreSQL a library's
	// transactions take turns (InLibraryTx), and this lock on the
	// library's events, held until the transaction ends, keeps appends
	// ordered for a transaction begun some other way too: the library's
	// next appender waits for this commit, and reads at READ COMMITTED
	// after the wait, so the newest event of the library it reads is the
	// last committed one. Other libraries' appends neither wait nor matter.
	if lock := s.q.d.AdvisoryLock; lock != "" {
		if _, err := s.q.exec(ctx, lock, LockKey("events", e.LibraryID)); err != nil {
			return s.q.one("lock events for", e.Type, err)
		}
	}
	var last string
	err := s.q.queryRow(ctx, `SELECT id FROM events WHERE library_id = ? ORDER BY seq DESC LIMIT 1`,
		e.LibraryID).Scan(&last)
	if err != nil && !isNoRows(err) {
		return s.q.translate(err)
	}
	e.ID = catalog.IDAfter(catalog.PrefixEvent, e.CreatedAt, last)
	_, err = s.q.exec(ctx, `INSERT INTO events (id, type, library_id, resource_id, data, created_at)
		VALUES (?, ?, ?, ?, ?, ?)`, e.ID, e.Type, e.LibraryID, e.ResourceID, string(data), micros(e.CreatedAt))
	return s.q.one("append event", e.Type, err)
}

func (s events) List(ctx context.Context, libraryID string, p query.Page) ([]catalog.Event, bool, error) {
	lq := listQuery{
		cols:  "id, type, library_id, resource_id, data, created_at",
		from:  "events",
		where: []string{"library_id = ?"},
		args:  []any{libraryID},
		sort:  "seq",
		idCol: "id",
		// seq is the feed's order and unique: events_library serves it.
		sortUnique: true,
	}
	return page(ctx, s.q, lq, p, func(rows scanner) (catalog.Event, error) {
		var e catalog.Event
		var data string
		var created int64
		err := rows.Scan(&e.ID, &e.Type, &e.LibraryID, &e.ResourceID, &data, &created)
		e.Data, e.CreatedAt = []byte(data), fromMicros(created)
		return e, err
	})
}

// LockKey is the advisory lock key of one id in a space of locks
// ("library", "events"): a 64-bit FNV-1a hash of space, a colon and id, the
// same in every process. Two ids whose keys collide only take turns; no
// rule depends on keys being distinct.
func LockKey(space, id string) int64 {
	h := fnv.New64a()
	h.Write([]byte(space + ":" + id))
	return int64(h.Sum64())
}
