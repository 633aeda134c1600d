package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

type events struct{ q conn }

func (r repos) Events() store.Events { return events{r.q} }

var _ store.Events = events{}

func (s events) Append(ctx context.Context, e *catalog.Event) error {
	data := e.Data
	if len(data) == 0 {
		data = []byte("{}")
	}
	// Ids follow commit order in each library's feed. Transactions of one
	// library take turns already (db.go); this lock on the library's
	// events, held until the transaction ends, keeps appends ordered for a
	// transaction begun some other way too: the library's next appender
	// waits for this commit, and reads at READ COMMITTED after the wait,
	// so the newest event of the library it reads is the last committed
	// one. Other libraries' appends neither wait nor matter: feeds are per
	// library.
	if _, err := s.q.exec(ctx, `SELECT pg_advisory_xact_lock(?)`, lockKey("events", e.LibraryID)); err != nil {
		return one("lock events for", e.Type, err)
	}
	var last string
	err := s.q.queryRow(ctx, `SELECT id FROM events WHERE library_id = ? ORDER BY seq DESC LIMIT 1`,
		e.LibraryID).Scan(&last)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return translate(err)
	}
	e.ID = catalog.IDAfter(catalog.PrefixEvent, e.CreatedAt, last)
	_, err = s.q.exec(ctx, `INSERT INTO events (id, type, library_id, resource_id, data, created_at)
		VALUES (?, ?, ?, ?, ?, ?)`, e.ID, e.Type, e.LibraryID, e.ResourceID, string(data), micros(e.CreatedAt))
	return one("append event", e.Type, err)
}

func (s events) List(ctx context.Context, libraryID string, p store.Page) ([]catalog.Event, bool, error) {
	q := listQuery{
		cols:  "id, type, library_id, resource_id, data, created_at",
		from:  "events",
		where: []string{"library_id = ?"},
		args:  []any{libraryID},
		sort:  "seq",
		idCol: "id",
		// seq is the feed's order and unique: events_library serves it.
		sortUnique: true,
	}
	return page(ctx, s.q, q, p, func(rows scanner) (catalog.Event, error) {
		var e catalog.Event
		var data string
		var created int64
		err := rows.Scan(&e.ID, &e.Type, &e.LibraryID, &e.ResourceID, &data, &created)
		e.Data, e.CreatedAt = []byte(data), fromMicros(created)
		return e, err
	})
}
