package sqlite

import (
	"context"
	"database/sql"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

type events struct{ q querier }

func (r repos) Events() store.Events { return events{r.q} }

var _ store.Events = events{}

func (s events) Append(ctx context.Context, e *catalog.Event) error {
	data := e.Data
	if len(data) == 0 {
		data = []byte("{}")
	}
	// Ids follow commit order: the writer is single, so the newest event
	// is the last committed one, and the new id must sort after it.
	var last string
	err := s.q.QueryRowContext(ctx, `SELECT id FROM events ORDER BY seq DESC LIMIT 1`).Scan(&last)
	if err != nil && err != sql.ErrNoRows {
		return translate(err)
	}
	e.ID = catalog.IDAfter(catalog.PrefixEvent, e.CreatedAt, last)
	_, err = s.q.ExecContext(ctx, `INSERT INTO events (id, type, library_id, resource_id, data, created_at)
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
	}
	return page(ctx, s.q, q, p, func(rows *sql.Rows) (catalog.Event, error) {
		var e catalog.Event
		var data string
		var created int64
		err := rows.Scan(&e.ID, &e.Type, &e.LibraryID, &e.ResourceID, &data, &created)
		e.Data, e.CreatedAt = []byte(data), fromMicros(created)
		return e, err
	})
}
