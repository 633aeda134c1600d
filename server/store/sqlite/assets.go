package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"

	segjson "github.com/segmentio/encoding/json"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

type assets struct{ q querier }

func (r repos) Assets() store.Assets { return assets{r.q} }

var _ store.Assets = assets{}

// Metadata layers are stored as JSON of catalog.Metadata with its Go field
// names: renaming a field there needs a migration of meta_* columns.
const assetCols = `a.id, a.library_id, a.contributor_id, a.device_asset_id, a.device_id, a.media_type,
	a.mime_type, a.original_file_name, a.file_created_at, a.file_modified_at, a.capture_wall,
	a.capture_offset, a.checksum, a.checksum_sha1, a.width, a.height, a.original_size,
	a.file_size_bytes, a.current_version_id, a.meta_file, a.meta_geo, a.meta_user, a.metrics,
	a.description, a.stack_id, a.trashed_at, a.created_at, a.updated_at, ` + assetStackCols

// assetStackCols read an asset's stack: its members in the asset's state
// (through assets_stack), its source and its cover. Only sqlite/stacks.go
// writes stack_id, so asset writes (writeCols) never carry a stale one back.
const assetStackCols = `CASE WHEN a.stack_id IS NULL THEN 0 ELSE
	(SELECT count(*) FROM assets m WHERE m.stack_id = a.stack_id AND m.live = a.live) END,
	(SELECT s.source FROM stacks s WHERE s.id = a.stack_id),
	(SELECT s.cover_asset_id FROM stacks s WHERE s.id = a.stack_id)`

func scanAsset(row interface{ Scan(...any) error }) (*catalog.Asset, error) {
	var sc assetScanner
	a, err := sc.scan(row)
	if err != nil {
		return nil, err
	}
	return &a, nil
}

// assetScanner scans rows of assetCols. Its scratch values are passed to
// Scan through an interface, so they live on the heap: one scanner for all
// the rows of a query costs one allocation, not one per row (the scratch
// holds a whole Asset, a tenth of a list page's allocations).
type assetScanner struct {
	a                                             catalog.Asset
	fileCreated, fileModified, wall, created, upd int64
	offset, width, height, trashed                sql.NullInt64
	meta                                          [4]string
	media                                         string
	stackSource, stackCover                       sql.NullString
}

func (v *assetScanner) scan(row interface{ Scan(...any) error }) (catalog.Asset, error) {
	// Start from zero: the decoders below would write through the previous
	// row's pointers (shared with the Asset returned for it).
	*v = assetScanner{}
	a := &v.a
	err := row.Scan(&a.ID, &a.LibraryID, &a.ContributorID, &a.DeviceAssetID, &a.DeviceID, &v.media,
		&a.MIMEType, &a.OriginalFileName, &v.fileCreated, &v.fileModified, &v.wall, &v.offset, &a.Checksum,
		&a.ChecksumSHA1, &v.width, &v.height, &a.OriginalSize, &a.FileSizeBytes, &a.CurrentVersionID,
		&v.meta[0], &v.meta[1], &v.meta[2], &v.meta[3], &a.Description, &a.StackID, &v.trashed, &v.created, &v.upd,
		&a.StackSize, &v.stackSource, &v.stackCover)
	if err != nil {
		return catalog.Asset{}, err
	}
	a.MediaType = catalog.MediaType(v.media)
	a.StackSource = catalog.StackSource(v.stackSource.String)
	a.StackCoverID = v.stackCover.String
	a.FileCreatedAt, a.FileModifiedAt = fromMicros(v.fileCreated), fromMicros(v.fileModified)
	a.Capture.Wall = fromMicros(v.wall)
	if v.offset.Valid {
		o := int(v.offset.Int64)
		a.Capture.Offset = &o
	}
	a.Width, a.Height = nullInt(v.width), nullInt(v.height)
	a.TrashedAt = fromNullMicros(v.trashed)
	a.CreatedAt, a.UpdatedAt = fromMicros(v.created), fromMicros(v.upd)
	for i, dst := range [4]any{&a.FileMeta, &a.GeoMeta, &a.UserMeta, &a.Metrics} {
		if v.meta[i] == "{}" {
			continue // an empty layer (most user layers): nothing to decode
		}
		// segmentio's decoder: encoding/json's results with a third of its
		// allocations, on the hottest path of every asset list.
		if err := segjson.Unmarshal([]byte(v.meta[i]), dst); err != nil {
			return catalog.Asset{}, fmt.Errorf("asset %s metadata: %w", a.ID, err)
		}
	}
	return *a, nil
}

// setFields is a metadata layer without its unset fields: stored rows stay
// small and decode fast (a missing key decodes to nil, like null).
func setFields(m catalog.Metadata) map[string]any {
	out := map[string]any{}
	v := reflect.ValueOf(m)
	for i := range v.NumField() {
		if f := v.Field(i); !f.IsNil() {
			out[v.Type().Field(i).Name] = f.Interface()
		}
	}
	return out
}

func nullInt(v sql.NullInt64) *int {
	if !v.Valid {
		return nil
	}
	i := int(v.Int64)
	return &i
}

// assetColumns are the values written for a, in the order of writeCols.
func assetColumns(a *catalog.Asset) ([]any, error) {
	var js [4]string
	for i, v := range []any{setFields(a.FileMeta), setFields(a.GeoMeta), setFields(a.UserMeta), a.Metrics} {
		b, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("encode asset %s metadata: %w", a.ID, err)
		}
		js[i] = string(b)
	}
	if a.Metrics == nil {
		js[3] = "{}"
	}
	m := a.Merged()
	var rating any
	if m.Rating != nil {
		rating = int(*m.Rating)
	}
	var offset any
	if a.Capture.Offset != nil {
		offset = *a.Capture.Offset
	}
	live := 1
	if a.TrashedAt != nil {
		live = 0
	}
	return []any{a.LibraryID, a.ContributorID, a.DeviceAssetID, a.DeviceID, string(a.MediaType),
		a.MIMEType, a.OriginalFileName, micros(a.FileCreatedAt), micros(a.FileModifiedAt),
		micros(a.Capture.Wall), offset, micros(a.Capture.Instant()), a.Checksum, a.ChecksumSHA1,
		a.Width, a.Height, a.OriginalSize, a.FileSizeBytes, a.CurrentVersionID, m.Latitude, m.Longitude,
		rating, js[0], js[1], js[2], js[3], a.Description, live, nullMicros(a.TrashedAt),
		micros(a.CreatedAt), micros(a.UpdatedAt)}, nil
}

const writeCols = `library_id, contributor_id, device_asset_id, device_id, media_type, mime_type,
	original_file_name, file_created_at, file_modified_at, capture_wall, capture_offset,
	capture_instant, checksum, checksum_sha1, width, height, original_size, file_size_bytes,
	current_version_id, latitude, longitude, rating, meta_file, meta_geo, meta_user, metrics,
	description, live, trashed_at, created_at, updated_at`

func (s assets) Create(ctx context.Context, a *catalog.Asset) error {
	vals, err := assetColumns(a)
	if err != nil {
		return err
	}
	res, err := s.q.ExecContext(ctx, `INSERT INTO assets (id, `+writeCols+`) VALUES (?`+
		strings.Repeat(", ?", len(vals))+`)`, append([]any{a.ID}, vals...)...)
	if err != nil {
		return one("create asset", a.ID, err)
	}
	seq, err := res.LastInsertId()
	if err != nil {
		return err
	}
	return s.syncGeo(ctx, seq, a)
}

// syncGeo keeps the R*Tree entry of one asset equal to its coordinates.
func (s assets) syncGeo(ctx context.Context, seq int64, a *catalog.Asset) error {
	m := a.Merged()
	if m.Latitude == nil || m.Longitude == nil {
		_, err := s.q.ExecContext(ctx, `DELETE FROM assets_geo WHERE seq = ?`, seq)
		return translate(err)
	}
	_, err := s.q.ExecContext(ctx, `INSERT OR REPLACE INTO assets_geo (seq, min_lon, max_lon, min_lat, max_lat)
		VALUES (?, ?, ?, ?, ?)`, seq, *m.Longitude, *m.Longitude, *m.Latitude, *m.Latitude)
	return translate(err)
}

func (s assets) Get(ctx context.Context, id string) (*catalog.Asset, error) {
	a, err := scanAsset(s.q.QueryRowContext(ctx, `SELECT `+assetCols+` FROM assets a WHERE a.id = ?`, id))
	return a, one("asset", id, err)
}

func (s assets) GetMany(ctx context.Context, ids []string) ([]catalog.Asset, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	rows, err := s.q.QueryContext(ctx, `SELECT `+assetCols+` FROM assets a WHERE a.id IN (`+
		placeholders(len(ids))+`)`, anySlice(ids)...)
	if err != nil {
		return nil, translate(err)
	}
	defer rows.Close()
	var out []catalog.Asset
	var sc assetScanner
	for rows.Next() {
		a, err := sc.scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, translate(rows.Err())
}

func (s assets) Existing(ctx context.Context, ids []string) ([]string, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	return queryStrings(ctx, s.q, `SELECT id FROM assets WHERE id IN (`+placeholders(len(ids))+`)`, anySlice(ids)...)
}

func (s assets) FindByChecksum(ctx context.Context, libraryID string, sum []byte) (*catalog.Asset, error) {
	a, err := scanAsset(s.q.QueryRowContext(ctx, `SELECT `+assetCols+` FROM assets a
		WHERE a.library_id = ? AND a.checksum = ?`, libraryID, sum))
	return a, one("asset with checksum in", libraryID, err)
}

func (s assets) IDsByChecksum(ctx context.Context, libraryID string, sums [][]byte) (map[string]string, error) {
	out := make(map[string]string, len(sums))
	if len(sums) == 0 {
		return out, nil
	}
	args := make([]any, 0, len(sums)+1)
	args = append(args, libraryID)
	for _, sum := range sums {
		args = append(args, sum)
	}
	rows, err := s.q.QueryContext(ctx, `SELECT checksum, id FROM assets WHERE library_id = ? AND checksum IN (`+
		placeholders(len(sums))+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("find checksums: %w", translate(err))
	}
	defer rows.Close()
	for rows.Next() {
		var sum []byte
		var id string
		if err := rows.Scan(&sum, &id); err != nil {
			return nil, err
		}
		out[string(sum)] = id
	}
	return out, translate(rows.Err())
}

func (s assets) Update(ctx context.Context, a *catalog.Asset) error {
	vals, err := assetColumns(a)
	if err != nil {
		return err
	}
	sets := strings.Split(strings.Join(strings.Fields(writeCols), " "), ", ")
	for i := range sets {
		sets[i] = strings.TrimSpace(sets[i]) + " = ?"
	}
	var seq int64
	err = s.q.QueryRowContext(ctx, `UPDATE assets SET `+strings.Join(sets, ", ")+` WHERE id = ? RETURNING seq`,
		append(vals, a.ID)...).Scan(&seq)
	if err != nil {
		return one("update asset", a.ID, err)
	}
	return s.syncGeo(ctx, seq, a)
}

func (s assets) SetTrashed(ctx context.Context, ids []string, at *time.Time, now time.Time) error {
	live := 1
	if at != nil {
		live = 0
	}
	_, err := s.q.ExecContext(ctx, `UPDATE assets SET trashed_at = ?, live = ?, updated_at = ?
		WHERE id IN (`+placeholders(len(ids))+`)`, append([]any{nullMicros(at), live, micros(now)}, anySlice(ids)...)...)
	return translate(err)
}

func (s assets) Delete(ctx context.Context, ids []string) error {
	in := placeholders(len(ids))
	if _, err := s.q.ExecContext(ctx, `DELETE FROM assets_geo WHERE seq IN (SELECT seq FROM assets WHERE id IN (`+
		in+`))`, anySlice(ids)...); err != nil {
		return translate(err)
	}
	_, err := s.q.ExecContext(ctx, `DELETE FROM assets WHERE id IN (`+in+`)`, anySlice(ids)...)
	return translate(err)
}

func (s assets) TrashedBefore(ctx context.Context, t time.Time, limit int) ([]string, error) {
	return queryStrings(ctx, s.q, `SELECT id FROM assets WHERE trashed_at IS NOT NULL AND trashed_at < ?
		ORDER BY trashed_at LIMIT ?`, micros(t), limit)
}

// queryStrings runs a query of one text column and collects the values.
func queryStrings(ctx context.Context, q querier, query string, args ...any) ([]string, error) {
	return queryAll(ctx, q, func(rows *sql.Rows) (v string, err error) { return v, rows.Scan(&v) }, query, args...)
}

// queryAll runs a query and collects every row as scan reads it (nil when
// there is none).
func queryAll[T any](ctx context.Context, q querier, scan func(*sql.Rows) (T, error), query string, args ...any) ([]T, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, translate(err)
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, translate(rows.Err())
}

func placeholders(n int) string {
	if n == 0 {
		return "NULL"
	}
	return strings.Repeat("?, ", n-1) + "?"
}

func anySlice[T any](xs []T) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}
