package sqlstore

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
)

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
		r := int(*m.Rating)
		rating = &r
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

// writeCols are the columns Create and Update write (stack_id and
// stack_cover belong to stacks.go).
var writeCols = []string{"library_id", "contributor_id", "device_asset_id", "device_id", "media_type",
	"mime_type", "original_file_name", "file_created_at", "file_modified_at", "capture_wall", "capture_offset",
	"capture_instant", "checksum", "checksum_sha1", "width", "height", "original_size", "file_size_bytes",
	"current_version_id", "latitude", "longitude", "rating", "meta_file", "meta_geo", "meta_user", "metrics",
	"description", "live", "trashed_at", "created_at", "updated_at"}

// Create inserts a. A duplicate id or checksum is ErrConflict: in
// PostgreSQL through ON CONFLICT DO NOTHING, which leaves the transaction
// usable (see inserted); SQLite, which keeps the spatial index itself
// (GeoTable), needs the new row's seq and takes the unique index's error.
func (s assets) Create(ctx context.Context, a *catalog.Asset) error {
	vals, err := assetColumns(a)
	if err != nil {
		return err
	}
	insert := `INSERT INTO assets (id, ` + strings.Join(writeCols, ", ") + `) VALUES (?` +
		strings.Repeat(", ?", len(vals)) + `)`
	args := append([]any{a.ID}, vals...)
	if !s.q.d.GeoTable {
		res, err := s.q.exec(ctx, insert+` ON CONFLICT DO NOTHING`, args...)
		return s.q.inserted("create asset", a.ID, res, err)
	}
	res, err := s.q.exec(ctx, insert, args...)
	if err != nil {
		return s.q.one("create asset", a.ID, err)
	}
	// seq is the row's rowid, which database/sql's result carries.
	rowid, ok := res.(interface{ LastInsertId() (int64, error) })
	if !ok {
		return fmt.Errorf("create asset %s: the driver tells no row id", a.ID)
	}
	seq, err := rowid.LastInsertId()
	if err != nil {
		return err
	}
	return s.syncGeo(ctx, seq, a)
}

// syncGeo keeps the spatial table's entry of one asset (GeoTable: SQLite's
// R*Tree) equal to its coordinates.
func (s assets) syncGeo(ctx context.Context, seq int64, a *catalog.Asset) error {
	m := a.Merged()
	if m.Latitude == nil || m.Longitude == nil {
		_, err := s.q.exec(ctx, `DELETE FROM assets_geo WHERE seq = ?`, seq)
		return s.q.translate(err)
	}
	_, err := s.q.exec(ctx, `INSERT OR REPLACE INTO assets_geo (seq, min_lon, max_lon, min_lat, max_lat)
		VALUES (?, ?, ?, ?, ?)`, seq, *m.Longitude, *m.Longitude, *m.Latitude, *m.Latitude)
	return s.q.translate(err)
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
	update := `UPDATE assets SET ` + strings.Join(sets, ", ") + ` WHERE id = ?`
	if !s.q.d.GeoTable {
		res, err := s.q.exec(ctx, update, append(vals, a.ID)...)
		return s.q.affected("update asset", a.ID, res, err)
	}
	var seq int64
	if err := s.q.queryRow(ctx, update+` RETURNING seq`, append(vals, a.ID)...).Scan(&seq); err != nil {
		return s.q.one("update asset", a.ID, err)
	}
	return s.syncGeo(ctx, seq, a)
}

func (s assets) SetTrashed(ctx context.Context, ids []string, at *time.Time, now time.Time) error {
	if len(ids) == 0 {
		return nil
	}
	live := 1
	if at != nil {
		live = 0
	}
	in, args := s.q.d.In("id", ids)
	_, err := s.q.exec(ctx, `UPDATE assets SET trashed_at = ?, live = ?, updated_at = ? WHERE `+in,
		append([]any{nullMicros(at), live, micros(now)}, args...)...)
	return s.q.translate(err)
}

func (s assets) Delete(ctx context.Context, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	in, args := s.q.d.In("id", ids)
	if s.q.d.GeoTable {
		if _, err := s.q.exec(ctx, `DELETE FROM assets_geo WHERE seq IN (SELECT seq FROM assets WHERE `+in+`)`,
			args...); err != nil {
			return s.q.translate(err)
		}
	}
	_, err := s.q.exec(ctx, `DELETE FROM assets WHERE `+in, args...)
	return s.q.translate(err)
}
