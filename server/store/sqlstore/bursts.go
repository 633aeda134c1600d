package sqlstore

import (
	"context"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

type bursts struct{ q Q }

var _ store.Bursts = bursts{}

// Bursts returns the burst detection repository.
func (r Repos) Bursts() store.Bursts { return bursts{r.Q} }

// cols read a shot straight from the row: make and model from the file
// layer's JSON (Go field names, as the assets repository writes it), the
// hash and quality from the metrics' JSON, so nothing else of the row is
// decoded.
func (r bursts) cols() string {
	text, num := r.q.d.JSONText, r.q.d.JSONNumber
	return `a.id, a.library_id, a.device_id, ` + text("a.meta_file", "Make") + `, ` + text("a.meta_file", "Model") + `,
	a.capture_instant, ` + text("a.metrics", "phash") + `, ` + num("a.metrics", "quality") + `,
	a.stack_id, (SELECT s.source FROM stacks s WHERE s.id = a.stack_id),
	a.live = 1, EXISTS (SELECT 1 FROM burst_exclusions x WHERE x.asset_id = a.id),
	` + text("a.meta_file", "CaptureSource") + `, ` + text("a.meta_user", "OriginalDatetime") + ` IS NOT NULL,
	` + text("a.meta_file", "SerialNumber") + `, ` + text("a.meta_file", "BurstID")
}

func (r bursts) Shots(ctx context.Context, ids []string) ([]store.BurstShot, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	in, args := r.q.d.In("a.id", ids)
	return queryAll(ctx, r.q, scanShot, `SELECT `+r.cols()+` FROM assets a WHERE `+in, args...)
}

func (r bursts) Near(ctx context.Context, libraryID string, from, to time.Time, limit int) ([]store.BurstShot, error) {
	return queryAll(ctx, r.q, scanShot, `SELECT `+r.cols()+` FROM assets a
		WHERE a.library_id = ? AND a.live = 1 AND a.capture_instant BETWEEN ? AND ?
		ORDER BY a.capture_instant, a.seq LIMIT ?`, libraryID, micros(from), micros(to), limit)
}

func scanShot(row scanner) (store.BurstShot, error) {
	var s store.BurstShot
	var mk, model, phash, stackID, source, capture, serial, burstID *string
	var instant int64
	if err := row.Scan(&s.ID, &s.LibraryID, &s.DeviceID, &mk, &model, &instant, &phash, &s.Quality,
		&stackID, &source, &s.Live, &s.Excluded, &capture, &s.UserTime, &serial, &burstID); err != nil {
		return s, err
	}
	s.Make, s.Model, s.PHash, s.StackID = orEmpty(mk), orEmpty(model), orEmpty(phash), orEmpty(stackID)
	s.CaptureSource, s.SerialNumber, s.BurstID = orEmpty(capture), orEmpty(serial), orEmpty(burstID)
	s.StackSource, s.Instant = catalog.StackSource(orEmpty(source)), fromMicros(instant)
	return s, nil
}

// orEmpty reads an optional string, "" when absent.
func orEmpty(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func (r bursts) UnsettledLibraries(ctx context.Context) ([]string, error) {
	return queryStrings(ctx, r.q, `SELECT DISTINCT s.library_id FROM stacks s
		WHERE s.source = 'auto' AND EXISTS (SELECT 1 FROM assets a
			WHERE a.stack_id = s.id AND `+r.q.d.JSONText("a.meta_file", "CaptureSource")+` IS NULL)`)
}

func (r bursts) Exclude(ctx context.Context, ids []string, at time.Time) error {
	if len(ids) == 0 {
		return nil
	}
	in, args := r.q.d.In("id", ids)
	_, err := r.q.exec(ctx, `INSERT INTO burst_exclusions (asset_id, created_at)
		SELECT id, ? FROM assets WHERE `+in+` ON CONFLICT DO NOTHING`, append([]any{micros(at)}, args...)...)
	return r.q.translate(err)
}
