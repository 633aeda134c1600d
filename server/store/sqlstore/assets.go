package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"time"

	segjson "github.com/segmentio/encoding/json"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

type assets struct{ q Q }

var _ store.Assets = assets{}

// Assets returns the asset repository.
func (r Repos) Assets() store.Assets { return assets{r.Q} }

// assetColsOf caches assetCols per dialect: the list's hottest string.
var assetColsOf sync.Map

// cols are the columns an assetScanner reads (AssetCols).
func (s assets) cols() string { return AssetCols(s.q.d) }

// AssetCols are the columns of an asset row over "assets a", as the
// repository and the dialects' search read them (an assetScanner scans
// them). Metadata layers are stored as JSON of catalog.Metadata with its
// Go field names: renaming a field there needs a migration of meta_*
// columns.
func AssetCols(d *Dialect) string {
	if c, ok := assetColsOf.Load(d); ok {
		return c.(string)
	}
	t := d.JSONAsText
	c := `a.id, a.library_id, a.contributor_id, a.device_asset_id, a.device_id, a.media_type,
	a.mime_type, a.original_file_name, a.file_created_at, a.file_modified_at, a.capture_wall,
	a.capture_offset, a.checksum, a.checksum_sha1, a.width, a.height, a.original_size,
	a.file_size_bytes, a.current_version_id, ` + t("a.meta_file") + `, ` + t("a.meta_geo") + `, ` +
		t("a.meta_user") + `, ` + t("a.metrics") + `,
	a.description, a.stack_id, a.trashed_at, a.created_at, a.updated_at, ` + assetStackCols
	assetColsOf.Store(d, c)
	return c
}

// assetStackCols read an asset's stack: its members in the asset's state
// (through assets_stack), its source and its cover. Only stacks.go writes
// stack_id, so asset writes (writeCols) never carry a stale one back.
const assetStackCols = `CASE WHEN a.stack_id IS NULL THEN 0 ELSE
	(SELECT count(*) FROM assets m WHERE m.stack_id = a.stack_id AND m.live = a.live) END,
	(SELECT s.source FROM stacks s WHERE s.id = a.stack_id),
	(SELECT s.cover_asset_id FROM stacks s WHERE s.id = a.stack_id)`

// assetScanner scans rows of cols. Its scratch values are passed to Scan
// through an interface, so they live on the heap: one scanner for all the
// rows of a query costs one allocation, not one per row (the scratch holds
// a whole Asset, a tenth of a list page's allocations).
type assetScanner struct {
	a                                             catalog.Asset
	fileCreated, fileModified, wall, created, upd int64
	offset, width, height, trashed                sql.NullInt64
	meta                                          [4]string
	media                                         string
	stackSource, stackCover                       sql.NullString
}

func (v *assetScanner) scan(row scanner) (catalog.Asset, error) {
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
	a.Capture.Offset = nullInt(v.offset)
	a.Width, a.Height = nullInt(v.width), nullInt(v.height)
	if v.trashed.Valid {
		a.TrashedAt = fromNullMicros(&v.trashed.Int64)
	}
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

// scanAsset reads one row of cols.
func scanAsset(row scanner) (*catalog.Asset, error) {
	var sc assetScanner
	a, err := sc.scan(row)
	if err != nil {
		return nil, err
	}
	return &a, nil
}

// queryAssets collects the rows of a query of cols (nil when none), with
// one scanner for them all.
func (s assets) queryAssets(ctx context.Context, query string, args ...any) ([]catalog.Asset, error) {
	var sc assetScanner
	return queryAll(ctx, s.q, sc.scan, query, args...)
}

func (s assets) Get(ctx context.Context, id string) (*catalog.Asset, error) {
	a, err := scanAsset(s.q.queryRow(ctx, `SELECT `+s.cols()+` FROM assets a WHERE a.id = ?`, id))
	return a, s.q.one("asset", id, err)
}

func (s assets) GetMany(ctx context.Context, ids []string) ([]catalog.Asset, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	in, args := s.q.d.In("a.id", ids)
	return s.queryAssets(ctx, `SELECT `+s.cols()+` FROM assets a WHERE `+in, args...)
}

func (s assets) Existing(ctx context.Context, ids []string) ([]string, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	in, args := s.q.d.In("id", ids)
	return queryStrings(ctx, s.q, `SELECT id FROM assets WHERE `+in, args...)
}

func (s assets) FindByChecksum(ctx context.Context, libraryID string, sum []byte) (*catalog.Asset, error) {
	a, err := scanAsset(s.q.queryRow(ctx, `SELECT `+s.cols()+` FROM assets a
		WHERE a.library_id = ? AND a.checksum = ?`, libraryID, sum))
	return a, s.q.one("asset with checksum in", libraryID, err)
}

func (s assets) IDsByChecksum(ctx context.Context, libraryID string, sums [][]byte) (map[string]string, error) {
	out := make(map[string]string, len(sums))
	if len(sums) == 0 {
		return out, nil
	}
	in, args := s.q.d.InBytes("checksum", sums)
	rows, err := s.q.query(ctx, `SELECT checksum, id FROM assets WHERE library_id = ? AND `+in,
		append([]any{libraryID}, args...)...)
	if err != nil {
		return nil, fmt.Errorf("find checksums: %w", s.q.translate(err))
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
	return out, s.q.translate(rows.Err())
}

func (s assets) TrashedBefore(ctx context.Context, t time.Time, limit int) ([]string, error) {
	return queryStrings(ctx, s.q, `SELECT id FROM assets WHERE trashed_at IS NOT NULL AND trashed_at < ?
		ORDER BY trashed_at LIMIT ?`, micros(t), limit)
}
