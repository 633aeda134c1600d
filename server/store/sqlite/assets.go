package sqlite

import (
	"database/sql"
	"fmt"
	"strings"

	segjson "github.com/segmentio/encoding/json"

	"github.com/photoctl/photoctl/server/catalog"
)

// The asset repository is sqlstore's (sqlstore/assets.go). The columns and
// scanner of an asset row stay here for the search (search_query.go),
// until it moves there too.

// Metadata layers are stored as JSON of catalog.Metadata with its Go field
// names: renaming a field there needs a migration of meta_* columns.
const assetCols = `a.id, a.library_id, a.contributor_id, a.device_asset_id, a.device_id, a.media_type,
	a.mime_type, a.original_file_name, a.file_created_at, a.file_modified_at, a.capture_wall,
	a.capture_offset, a.checksum, a.checksum_sha1, a.width, a.height, a.original_size,
	a.file_size_bytes, a.current_version_id, a.meta_file, a.meta_geo, a.meta_user, a.metrics,
	a.description, a.stack_id, a.trashed_at, a.created_at, a.updated_at, ` + assetStackCols

// assetStackCols read an asset's stack: its members in the asset's state
// (through assets_stack), its source and its cover. Only sqlstore/stacks.go
// writes stack_id, so asset writes (writeCols) never carry a stale one back.
const assetStackCols = `CASE WHEN a.stack_id IS NULL THEN 0 ELSE
	(SELECT count(*) FROM assets m WHERE m.stack_id = a.stack_id AND m.live = a.live) END,
	(SELECT s.source FROM stacks s WHERE s.id = a.stack_id),
	(SELECT s.cover_asset_id FROM stacks s WHERE s.id = a.stack_id)`

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

func nullInt(v sql.NullInt64) *int {
	if !v.Valid {
		return nil
	}
	i := int(v.Int64)
	return &i
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
