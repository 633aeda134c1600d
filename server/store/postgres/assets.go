package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"

	segjson "github.com/segmentio/encoding/json"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

type assets struct{ q conn }

var _ store.Assets = assets{}

// Assets returns the asset repository.
func (r repos) Assets() store.Assets { return assets{r.q} }

// assetCols are the columns scanAsset reads, over "assets a". Metadata
// layers are stored as JSON of catalog.Metadata with its Go field names (as
// in the SQLite store): renaming a field there needs a migration of meta_*.
const assetCols = `a.id, a.library_id, a.contributor_id, a.device_asset_id, a.device_id, a.media_type,
	a.mime_type, a.original_file_name, a.file_created_at, a.file_modified_at, a.capture_wall,
	a.capture_offset, a.checksum, a.checksum_sha1, a.width, a.height, a.original_size,
	a.file_size_bytes, a.current_version_id, a.meta_file::text, a.meta_geo::text, a.meta_user::text,
	a.metrics::text, a.description, a.stack_id, a.trashed_at, a.created_at, a.updated_at, ` + assetStackCols

// assetStackCols read an asset's stack: its members in the asset's state
// (through assets_stack), its source and its cover. Only stacks.go writes
// stack_id, so asset writes (writeCols) never carry a stale one back.
const assetStackCols = `CASE WHEN a.stack_id IS NULL THEN 0 ELSE
	(SELECT count(*) FROM assets m WHERE m.stack_id = a.stack_id AND m.live = a.live) END,
	(SELECT s.source FROM stacks s WHERE s.id = a.stack_id),
	(SELECT s.cover_asset_id FROM stacks s WHERE s.id = a.stack_id)`

// scanAsset reads one row of assetCols.
func scanAsset(row scanner) (*catalog.Asset, error) {
	v := &struct {
		a                                             catalog.Asset
		fileCreated, fileModified, wall, created, upd int64
		offset, width, height                         *int32
		trashed                                       *int64
		meta                                          [4]string
		media                                         string
		stackSize                                     int64
		stackSource, stackCover                       *string
	}{}
	a := &v.a
	err := row.Scan(&a.ID, &a.LibraryID, &a.ContributorID, &a.DeviceAssetID, &a.DeviceID, &v.media,
		&a.MIMEType, &a.OriginalFileName, &v.fileCreated, &v.fileModified, &v.wall, &v.offset, &a.Checksum,
		&a.ChecksumSHA1, &v.width, &v.height, &a.OriginalSize, &a.FileSizeBytes, &a.CurrentVersionID,
		&v.meta[0], &v.meta[1], &v.meta[2], &v.meta[3], &a.Description, &a.StackID, &v.trashed, &v.created, &v.upd,
		&v.stackSize, &v.stackSource, &v.stackCover)
	if err != nil {
		return nil, err
	}
	a.MediaType = catalog.MediaType(v.media)
	a.StackSize = int(v.stackSize)
	if v.stackSource != nil {
		a.StackSource = catalog.StackSource(*v.stackSource)
	}
	if v.stackCover != nil {
		a.StackCoverID = *v.stackCover
	}
	a.FileCreatedAt, a.FileModifiedAt = fromMicros(v.fileCreated), fromMicros(v.fileModified)
	a.Capture.Wall = fromMicros(v.wall)
	a.Capture.Offset = intPtr(v.offset)
	a.Width, a.Height = intPtr(v.width), intPtr(v.height)
	a.TrashedAt = fromNullMicros(v.trashed)
	a.CreatedAt, a.UpdatedAt = fromMicros(v.created), fromMicros(v.upd)
	for i, dst := range [4]any{&a.FileMeta, &a.GeoMeta, &a.UserMeta, &a.Metrics} {
		if v.meta[i] == "{}" {
			continue // an empty layer (most user layers): nothing to decode
		}
		if err := segjson.Unmarshal([]byte(v.meta[i]), dst); err != nil {
			return nil, fmt.Errorf("asset %s metadata: %w", a.ID, err)
		}
	}
	return a, nil
}

// scanAssets collects the rows of a query of assetCols.
func scanAssets(ctx context.Context, db conn, sql string, args ...any) ([]catalog.Asset, error) {
	rows, err := db.query(ctx, sql, args...)
	if err != nil {
		return nil, translate(err)
	}
	defer rows.Close()
	var out []catalog.Asset // nil when no row, as in the SQLite store
	for rows.Next() {
		a, err := scanAsset(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, *a)
	}
	return out, translate(rows.Err())
}

func intPtr(v *int32) *int {
	if v == nil {
		return nil
	}
	i := int(*v)
	return &i
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
	var rating *int
	if m.Rating != nil {
		rating = ptrTo(int(*m.Rating))
	}
	live := 1
	if a.TrashedAt != nil {
		live = 0
	}
	return []any{a.LibraryID, a.ContributorID, a.DeviceAssetID, a.DeviceID, string(a.MediaType),
		a.MIMEType, a.OriginalFileName, micros(a.FileCreatedAt), micros(a.FileModifiedAt),
		micros(a.Capture.Wall), a.Capture.Offset, micros(a.Capture.Instant()), a.Checksum, a.ChecksumSHA1,
		a.Width, a.Height, a.OriginalSize, a.FileSizeBytes, a.CurrentVersionID, m.Latitude, m.Longitude,
		rating, js[0], js[1], js[2], js[3], a.Description, live, nullMicros(a.TrashedAt),
		micros(a.CreatedAt), micros(a.UpdatedAt)}, nil
}

func ptrTo[T any](v T) *T { return &v }

// writeCols are the columns Create and Update write (stack_id and
// stack_cover belong to stacks.go).
var writeCols = []string{"library_id", "contributor_id", "device_asset_id", "device_id", "media_type",
	"mime_type", "original_file_name", "file_created_at", "file_modified_at", "capture_wall", "capture_offset",
	"capture_instant", "checksum", "checksum_sha1", "width", "height", "original_size", "file_size_bytes",
	"current_version_id", "latitude", "longitude", "rating", "meta_file", "meta_geo", "meta_user", "metrics",
	"description", "live", "trashed_at", "created_at", "updated_at"}

// Create inserts a. A duplicate id or checksum is an ErrConflict that
// leaves the transaction usable (ON CONFLICT DO NOTHING, see inserted).
func (s assets) Create(ctx context.Context, a *catalog.Asset) error {
	vals, err := assetColumns(a)
	if err != nil {
		return err
	}
	tag, err := s.q.exec(ctx, `INSERT INTO assets (id, `+strings.Join(writeCols, ", ")+`) VALUES (?`+
		strings.Repeat(", ?", len(vals))+`) ON CONFLICT DO NOTHING`, append([]any{a.ID}, vals...)...)
	return inserted("create asset", a.ID, tag, err)
}

func (s assets) Get(ctx context.Context, id string) (*catalog.Asset, error) {
	a, err := scanAsset(s.q.queryRow(ctx, `SELECT `+assetCols+` FROM assets a WHERE a.id = ?`, id))
	return a, one("asset", id, err)
}

func (s assets) GetMany(ctx context.Context, ids []string) ([]catalog.Asset, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	return scanAssets(ctx, s.q, `SELECT `+assetCols+` FROM assets a WHERE a.id = ANY(?::text[])`, ids)
}

func (s assets) Existing(ctx context.Context, ids []string) ([]string, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	return queryStrings(ctx, s.q, `SELECT id FROM assets WHERE id = ANY(?::text[])`, ids)
}

func (s assets) FindByChecksum(ctx context.Context, libraryID string, sum []byte) (*catalog.Asset, error) {
	a, err := scanAsset(s.q.queryRow(ctx, `SELECT `+assetCols+` FROM assets a
		WHERE a.library_id = ? AND a.checksum = ?`, libraryID, sum))
	return a, one("asset with checksum in", libraryID, err)
}

func (s assets) IDsByChecksum(ctx context.Context, libraryID string, sums [][]byte) (map[string]string, error) {
	out := make(map[string]string, len(sums))
	if len(sums) == 0 {
		return out, nil
	}
	rows, err := s.q.query(ctx, `SELECT checksum, id FROM assets WHERE library_id = ? AND checksum = ANY(?::bytea[])`,
		libraryID, sums)
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
	sets := make([]string, len(writeCols))
	for i, c := range writeCols {
		sets[i] = c + " = ?"
	}
	tag, err := s.q.exec(ctx, `UPDATE assets SET `+strings.Join(sets, ", ")+` WHERE id = ?`, append(vals, a.ID)...)
	return affected("update asset", a.ID, tag, err)
}

func (s assets) SetTrashed(ctx context.Context, ids []string, at *time.Time, now time.Time) error {
	if len(ids) == 0 {
		return nil
	}
	live := 1
	if at != nil {
		live = 0
	}
	_, err := s.q.exec(ctx, `UPDATE assets SET trashed_at = ?, live = ?, updated_at = ? WHERE id = ANY(?::text[])`,
		nullMicros(at), live, micros(now), ids)
	return translate(err)
}

func (s assets) Delete(ctx context.Context, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	_, err := s.q.exec(ctx, `DELETE FROM assets WHERE id = ANY(?::text[])`, ids)
	return translate(err)
}

func (s assets) TrashedBefore(ctx context.Context, t time.Time, limit int) ([]string, error) {
	return queryStrings(ctx, s.q, `SELECT id FROM assets WHERE trashed_at IS NOT NULL AND trashed_at < ?
		ORDER BY trashed_at LIMIT ?`, micros(t), limit)
}
