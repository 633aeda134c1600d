package postgres

import (
	"context"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

type bursts struct{ q conn }

var _ store.Bursts = bursts{}

// Bursts returns the burst detection repository.
func (r repos) Bursts() store.Bursts { return bursts{r.q} }

// burstCols read a shot straight from the row: make and model from the
// file layer's JSON (Go field names, as the assets repository writes it),
// the hash and quality from the metrics' JSON, so nothing else of the row
// is decoded. A quality that is not a JSON number reads as none.
const burstCols = `a.id, a.library_id, a.device_id, a.meta_file->>'Make', a.meta_file->>'Model',
	a.capture_instant, a.metrics->>'phash',
	CASE WHEN jsonb_typeof(a.metrics->'quality') = 'number' THEN (a.metrics->>'quality')::double precision END,
	a.stack_id, (SELECT s.source FROM stacks s WHERE s.id = a.stack_id),
	a.live = 1, EXISTS (SELECT 1 FROM burst_exclusions x WHERE x.asset_id = a.id),
	a.meta_file->>'CaptureSource', a.meta_user->>'OriginalDatetime' IS NOT NULL,
	a.meta_file->>'SerialNumber', a.meta_file->>'BurstID'`

func (r bursts) Shots(ctx context.Context, ids []string) ([]store.BurstShot, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	return r.query(ctx, `SELECT `+burstCols+` FROM assets a WHERE a.id = ANY(?::text[])`, ids)
}

func (r bursts) Near(ctx context.Context, libraryID string, from, to time.Time, limit int) ([]store.BurstShot, error) {
	return r.query(ctx, `SELECT `+burstCols+` FROM assets a
		WHERE a.library_id = ? AND a.live = 1 AND a.capture_instant BETWEEN ? AND ?
		ORDER BY a.capture_instant, a.seq LIMIT ?`, libraryID, micros(from), micros(to), limit)
}

func (r bursts) query(ctx context.Context, query string, args ...any) ([]store.BurstShot, error) {
	rows, err := r.q.query(ctx, query, args...)
	if err != nil {
		return nil, translate(err)
	}
	defer rows.Close()
	var out []store.BurstShot
	for rows.Next() {
		var s store.BurstShot
		var mk, model, phash, stackID, source, capture, serial, burstID *string
		var instant int64
		if err := rows.Scan(&s.ID, &s.LibraryID, &s.DeviceID, &mk, &model, &instant, &phash, &s.Quality,
			&stackID, &source, &s.Live, &s.Excluded, &capture, &s.UserTime, &serial, &burstID); err != nil {
			return nil, err
		}
		s.Make, s.Model, s.PHash, s.StackID = burstText(mk), burstText(model), burstText(phash), burstText(stackID)
		s.CaptureSource, s.SerialNumber, s.BurstID = burstText(capture), burstText(serial), burstText(burstID)
		s.StackSource, s.Instant = catalog.StackSource(burstText(source)), fromMicros(instant)
		out = append(out, s)
	}
	return out, translate(rows.Err())
}

func (r bursts) UnsettledLibraries(ctx context.Context) ([]string, error) {
	ids, err := queryStrings(ctx, r.q, `SELECT DISTINCT s.library_id FROM stacks s
		WHERE s.source = 'auto' AND EXISTS (SELECT 1 FROM assets a
			WHERE a.stack_id = s.id AND a.meta_file->>'CaptureSource' IS NULL)`)
	return ids, translate(err)
}

func (r bursts) Exclude(ctx context.Context, ids []string, at time.Time) error {
	if len(ids) == 0 {
		return nil
	}
	_, err := r.q.exec(ctx, `INSERT INTO burst_exclusions (asset_id, created_at)
		SELECT id, ? FROM assets WHERE id = ANY(?::text[]) ON CONFLICT DO NOTHING`, micros(at), ids)
	return translate(err)
}

// burstText reads an optional string, "" when absent.
func burstText(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
