package client

import (
	"context"
	"iter"
	"net/url"
	"strconv"
	"strings"

	"github.com/photoctl/photoctl/server/api"
)

// AssetQuery holds the filters of the asset list, counts and
// geo-clusters. Zero values are left out, so the server's defaults apply
// (live assets, newest first).
type AssetQuery struct {
	IDs       []string // at most 100
	LibraryID string
	// After and Before bound the capture time: After inclusive, Before
	// exclusive; both offsetless (wall clock) or both with an offset.
	After, Before string
	// Center is "longitude,latitude" and Radius metres; or BBox
	// "min_lon,min_lat,max_lon,max_lat".
	Center    string
	Radius    float64
	BBox      string
	StackID   string
	MediaType string // image or video
	MinRating *int
	State     string // live, trashed or all
	Order     string // desc or asc
	// Stacks is the view of stacks: "expand" lists every member of a stack
	// as its own asset, "collapse" (the server's default, also "") only
	// each stack's cover.
	Stacks string
	// Variants limits asset_urls to these renderings (include=variants).
	Variants []string
}

func (q AssetQuery) values() url.Values {
	v := url.Values{}
	if len(q.IDs) > 0 {
		v.Set("ids", strings.Join(q.IDs, ","))
	}
	setIf(v, "library_id", q.LibraryID)
	setIf(v, "local_datetime_after", q.After)
	setIf(v, "local_datetime_before", q.Before)
	setIf(v, "center", q.Center)
	if q.Radius != 0 {
		v.Set("radius", strconv.FormatFloat(q.Radius, 'f', -1, 64))
	}
	setIf(v, "bbox", q.BBox)
	setIf(v, "stack_id", q.StackID)
	setIf(v, "media_type", q.MediaType)
	if q.MinRating != nil {
		v.Set("min_rating", strconv.Itoa(*q.MinRating))
	}
	setIf(v, "state", q.State)
	setIf(v, "order", q.Order)
	setIf(v, "stacks", q.Stacks)
	if q.Variants != nil {
		v.Set("include", "variants")
		setIf(v, "variants", strings.Join(q.Variants, ","))
	}
	return v
}

// Assets iterates over every asset that q selects, pageSize per request
// (MaxPageSize when 0).
func (c *Client) Assets(ctx context.Context, q AssetQuery, pageSize int) iter.Seq2[api.Asset, error] {
	return walk(ctx, c, "/api/assets", q.values(), "", pageSize, func(a api.Asset) string { return a.ID })
}

// AssetsPage returns one page of the asset list: up to limit assets after
// the asset with id after.
func (c *Client) AssetsPage(ctx context.Context, q AssetQuery, after string, limit int) (*api.Page[api.Asset], error) {
	return pageOf[api.Asset](ctx, c, "/api/assets", q.values(), after, limit)
}

// Asset returns one asset. variants, when given, limits asset_urls to
// those renderings.
func (c *Client) Asset(ctx context.Context, id string, variants ...string) (*api.Asset, error) {
	d, err := c.AssetDetail(ctx, id, variants...)
	if err != nil {
		return nil, err
	}
	return &d.Asset, nil
}

// AssetDetail returns one asset as its own read shows it, with the text
// OCR read in it (nil until the server's ocr step ran).
func (c *Client) AssetDetail(ctx context.Context, id string, variants ...string) (*api.AssetDetail, error) {
	q := url.Values{}
	if len(variants) > 0 {
		q.Set("include", "variants")
		q.Set("variants", strings.Join(variants, ","))
	}
	var a api.AssetDetail
	if _, err := c.do(ctx, &call{method: "GET", path: assetPath(id), query: q, idempotent: true, out: &a}); err != nil {
		return nil, err
	}
	return &a, nil
}

// UpdateAsset edits one asset's metadata (PATCH /api/assets/{id}) and
// returns it. Fields of change that are not Set stay as they are; a Set
// field with a nil Value clears the user's value.
func (c *Client) UpdateAsset(ctx context.Context, id string, change api.AssetChange) (*api.Asset, error) {
	var a api.Asset
	if _, err := c.do(ctx, &call{method: "PATCH", path: assetPath(id), body: ChangeBody(change), out: &a}); err != nil {
		return nil, err
	}
	return &a, nil
}

// MaxBulkUpdate is the most items one bulk update may carry.
const MaxBulkUpdate = 200

// BulkUpdateAssets applies up to MaxBulkUpdate edits atomically (POST
// /api/assets/bulk-update): any invalid item rejects them all, with a 422
// whose Fields locate the item (["body","updates",i,...]).
func (c *Client) BulkUpdateAssets(ctx context.Context, updates []api.AssetUpdate) error {
	items := make([]map[string]any, len(updates))
	for i, u := range updates {
		items[i] = map[string]any{"id": u.ID, "change": ChangeBody(u.Change)}
	}
	_, err := c.do(ctx, &call{method: "POST", path: "/api/assets/bulk-update",
		body: map[string]any{"updates": items}, out: &api.Empty{}})
	return err
}

// ChangeBody is the JSON object of change with only its Set fields:
// api.Optional writes an unset field as null, which would clear it.
func ChangeBody(change api.AssetChange) map[string]any {
	m := map[string]any{}
	if change.Description.Set {
		m["description"] = change.Description
	}
	if change.Latitude.Set {
		m["latitude"] = change.Latitude
	}
	if change.Longitude.Set {
		m["longitude"] = change.Longitude
	}
	if change.OriginalDatetime.Set {
		m["original_datetime"] = change.OriginalDatetime
	}
	if change.Rating.Set {
		m["rating"] = change.Rating
	}
	return m
}

// MaxBulkIDs is the most ids one trash, restore or delete request takes.
const MaxBulkIDs = 100

// TrashAssets moves up to MaxBulkIDs assets to the trash; libraryID may be
// empty when the caller has one library.
func (c *Client) TrashAssets(ctx context.Context, libraryID string, ids []string) ([]string, error) {
	return c.bulkIDs(ctx, "POST", "/api/assets/trash", libraryID, ids)
}

// RestoreAssets restores up to MaxBulkIDs assets from the trash.
func (c *Client) RestoreAssets(ctx context.Context, libraryID string, ids []string) ([]string, error) {
	return c.bulkIDs(ctx, "POST", "/api/assets/restore", libraryID, ids)
}

// DeleteAssets permanently deletes up to MaxBulkIDs assets (library owner
// only) and returns the ids deleted.
func (c *Client) DeleteAssets(ctx context.Context, libraryID string, ids []string) ([]string, error) {
	var out api.AssetsDeleted
	_, err := c.do(ctx, &call{method: "DELETE", path: "/api/assets", query: libraryQuery(libraryID),
		body: api.AssetIDs{IDs: ids}, out: &out})
	if err != nil {
		return nil, err
	}
	return out.Deleted, nil
}

func (c *Client) bulkIDs(ctx context.Context, method, path, libraryID string, ids []string) ([]string, error) {
	var out api.AssetIDs
	_, err := c.do(ctx, &call{method: method, path: path, query: libraryQuery(libraryID),
		body: api.AssetIDs{IDs: ids}, out: &out, idempotent: true})
	if err != nil {
		return nil, err
	}
	return out.IDs, nil
}

// MaxCheck is the most checksums one duplicate check takes.
const MaxCheck = 1000

// CheckChecksums asks which of up to MaxCheck checksums (base64 SHA-256)
// the library already holds, and returns a map from checksum to asset id
// for those it holds.
func (c *Client) CheckChecksums(ctx context.Context, libraryID string, checksums []string) (map[string]string, error) {
	req := api.ChecksumCheckRequest{Checksums: checksums}
	if libraryID != "" {
		req.LibraryID = &libraryID
	}
	var out api.ChecksumCheckResponse
	if _, err := c.do(ctx, &call{method: "POST", path: "/api/assets/check", body: req, out: &out, idempotent: true}); err != nil {
		return nil, err
	}
	held := make(map[string]string)
	for _, r := range out.Data {
		if r.AssetID != nil {
			held[r.Checksum] = *r.AssetID
		}
	}
	return held, nil
}

// AssetCounts returns one page of capture-date buckets (bucket is day,
// month or year; "" is month) after the bucket label after.
func (c *Client) AssetCounts(ctx context.Context, q AssetQuery, bucket, after string, limit int) (*api.Page[api.AssetCount], error) {
	v := q.values()
	setIf(v, "bucket", bucket)
	setIf(v, "starting_after_bucket", after)
	if limit > 0 {
		v.Set("limit", strconv.Itoa(limit))
	}
	var page api.Page[api.AssetCount]
	if _, err := c.do(ctx, &call{method: "GET", path: "/api/assets/counts", query: v, idempotent: true, out: &page}); err != nil {
		return nil, err
	}
	return &page, nil
}

// GeoClusters groups the assets q selects inside q.BBox into cells of
// cellSize degrees.
func (c *Client) GeoClusters(ctx context.Context, q AssetQuery, cellSize float64) ([]api.GeoCluster, error) {
	v := q.values()
	v.Set("cell_size", strconv.FormatFloat(cellSize, 'f', -1, 64))
	var out api.GeoClusters
	if _, err := c.do(ctx, &call{method: "GET", path: "/api/assets/geo-clusters", query: v, idempotent: true, out: &out}); err != nil {
		return nil, err
	}
	return out.Data, nil
}

func assetPath(id string) string { return "/api/assets/" + url.PathEscape(id) }

func libraryQuery(libraryID string) url.Values {
	if libraryID == "" {
		return nil
	}
	return url.Values{"library_id": {libraryID}}
}
