package postgres

import (
	"fmt"

	segjson "github.com/segmentio/encoding/json"

	"github.com/photoctl/photoctl/server/catalog"
)

// The asset repository is sqlstore's (sqlstore/assets.go). The columns and
// scanner of an asset row stay here for the search (search_query.go),
// until it moves there too.

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

// scanAssetRow is scanAsset for a page's rows: the search's (search_query.go
// on main, issue 34 part C).
func scanAssetRow(row scanner) (catalog.Asset, error) {
	a, err := scanAsset(row)
	if err != nil {
		return catalog.Asset{}, err
	}
	return *a, nil
}

func intPtr(v *int32) *int {
	if v == nil {
		return nil
	}
	i := int(*v)
	return &i
}
