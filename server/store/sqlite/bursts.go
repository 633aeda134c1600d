package sqlite

import (
	"context"
	"database/sql"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

type bursts struct{ q querier }

func (r repos) Bursts() store.Bursts { return bursts{r.q} }

var _ store.Bursts = bursts{}

// burstCols read a shot straight from the row: make and model from the
// file layer's JSON (Go field names, see assetCols), the hash and quality
// from the metrics' JSON, so nothing else of the row is decoded.
const burstCols = `a.id, a.library_id, a.device_id, json_extract(a.meta_file, '$.Make'),
	json_extract(a.meta_file, '$.Model'), a.capture_instant, json_extract(a.metrics, '$.phash'),
	json_extract(a.metrics, '$.quality'), a.stack_id, (SELECT s.source FROM stacks s WHERE s.id = a.stack_id),
	a.live, EXISTS (SELECT 1 FROM burst_exclusions x WHERE x.asset_id = a.id),
	json_extract(a.meta_file, '$.CaptureSource'), json_extract(a.meta_user, '$.OriginalDatetime') IS NOT NULL,
	json_extract(a.meta_file, '$.SerialNumber'), json_extract(a.meta_file, '$.BurstID')`

func (r bursts) Shots(ctx context.Context, ids []string) ([]store.BurstShot, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	return r.query(ctx, `SELECT `+burstCols+` FROM assets a WHERE a.id IN (`+placeholders(len(ids))+`)`,
		anySlice(ids)...)
}

func (r bursts) Near(ctx context.Context, libraryID string, from, to time.Time, limit int) ([]store.BurstShot, error) {
	return r.query(ctx, `SELECT `+burstCols+` FROM assets a
		WHERE a.library_id = ? AND a.live = 1 AND a.capture_instant BETWEEN ? AND ?
		ORDER BY a.capture_instant, a.seq LIMIT ?`, libraryID, micros(from), micros(to), limit)
}

func (r bursts) query(ctx context.Context, query string, args ...any) ([]store.BurstShot, error) {
	rows, err := r.q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, translate(err)
	}
	defer rows.Close()
	var out []store.BurstShot
	for rows.Next() {
		var s store.BurstShot
		var mk, model, phash, stackID, source, capture, serial, burstID sql.NullString
		var quality sql.NullFloat64
		var instant int64
		if err := rows.Scan(&s.ID, &s.LibraryID, &s.DeviceID, &mk, &model, &instant, &phash, &quality,
			&stackID, &source, &s.Live, &s.Excluded, &capture, &s.UserTime, &serial, &burstID); err != nil {
			return nil, err
		}
		s.Make, s.Model, s.PHash, s.StackID = mk.String, model.String, phash.String, stackID.String
		s.CaptureSource, s.SerialNumber, s.BurstID = capture.String, serial.String, burstID.String
		s.StackSource, s.Instant = catalog.StackSource(source.String), fromMicros(instant)
		if quality.Valid {
			s.Quality = &quality.Float64
		}
		out = append(out, s)
	}
	return out, translate(rows.Err())
}

func (r bursts) UnsettledLibraries(ctx context.Context) ([]string, error) {
	ids, err := queryStrings(ctx, r.q, `SELECT DISTINCT s.library_id FROM stacks s
		WHERE s.source = 'auto' AND EXISTS (SELECT 1 FROM assets a
			WHERE a.stack_id = s.id AND json_extract(a.meta_file, '$.CaptureSource') IS NULL)`)
	return ids, translate(err)
}

func (r bursts) Exclude(ctx context.Context, ids []string, at time.Time) error {
	if len(ids) == 0 {
		return nil
	}
	_, err := r.q.ExecContext(ctx, `INSERT INTO burst_exclusions (asset_id, created_at)
		SELECT id, ? FROM assets WHERE id IN (`+placeholders(len(ids))+`) ON CONFLICT DO NOTHING`,
		append([]any{micros(at)}, anySlice(ids)...)...)
	return translate(err)
}
