package httpapi

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"time"

	"github.com/photoctl/photoctl/server/albums"
	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/assets"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/libraries"
	"github.com/photoctl/photoctl/server/mcp"
	"github.com/photoctl/photoctl/server/people"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/search"
)

// mcpBackend is the MCP tools' Backend on the server: the same service calls
// and conversions as the HTTP handlers, with the request's principal. The
// credential's action is checked by the tool gate (mcp.Options.Allows);
// role and library scope by the services, as for every route.
type mcpBackend struct {
	s *Server
	p *catalog.Principal
}

var _ mcp.Backend = mcpBackend{}

// maxPreviewBytes bounds a preview sent as image content (they are ~200 KB).
const maxPreviewBytes = 8 << 20

func (b mcpBackend) Search(ctx context.Context, q mcp.Query, after string, limit int) (*api.Page[api.SearchHit], error) {
	f, err := mcpFilter(q)
	if err != nil {
		return nil, err
	}
	hits, more, err := b.s.search.Search(ctx, b.p, search.Input{LibraryID: q.LibraryID, Query: q.Text, Filter: f},
		query.Page{Limit: limit, AfterID: after})
	if err != nil {
		return nil, err
	}
	list := make([]api.Asset, len(hits))
	for i := range hits {
		list[i] = toAPIAsset(&hits[i].Asset, nil)
	}
	if err := b.withPeople(ctx, list); err != nil {
		return nil, err
	}
	out := &api.Page[api.SearchHit]{Data: make([]api.SearchHit, len(hits)), HasMore: more}
	for i := range hits {
		out.Data[i] = api.SearchHit{Asset: list[i], Score: hits[i].Score}
	}
	return out, nil
}

// withPeople fills the people of converted assets (faces stay out: the
// tools show names).
func (b mcpBackend) withPeople(ctx context.Context, list []api.Asset) error {
	ids := make([]string, len(list))
	for i := range list {
		ids[i] = list[i].ID
	}
	_, persons, err := b.s.people.OfAssets(ctx, ids)
	if err != nil {
		return err
	}
	for i := range list {
		ps := persons[list[i].ID]
		list[i].People = make([]api.Person, len(ps))
		for j := range ps {
			list[i].People[j] = toAPIPerson(&ps[j])
		}
	}
	return nil
}

func (b mcpBackend) Asset(ctx context.Context, id string) (*api.AssetDetail, error) {
	a, ocr, err := b.s.assets.Detail(ctx, b.p, id)
	if err != nil {
		return nil, err
	}
	list := []api.Asset{toAPIAsset(a, nil)}
	if err := b.withPeople(ctx, list); err != nil {
		return nil, err
	}
	return &api.AssetDetail{Asset: list[0], OCRText: ocr}, nil
}

func (b mcpBackend) Preview(ctx context.Context, id string) ([]byte, string, error) {
	_, f, mime, err := b.s.assets.OpenVariant(ctx, b.p, id, "preview")
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxPreviewBytes+1))
	if err != nil {
		return nil, "", fmt.Errorf("read preview of %s: %w", id, err)
	}
	if len(data) > maxPreviewBytes {
		return nil, "", fmt.Errorf("preview of %s is larger than %d bytes: %w", id, maxPreviewBytes, catalog.ErrTooLarge)
	}
	return data, mime, nil
}

func (b mcpBackend) Albums(ctx context.Context, libraryID, after string, limit int) (*api.Page[api.Album], error) {
	list, more, err := b.s.albums.List(ctx, b.p, albums.ListInput{LibraryID: libraryID}, query.Page{Limit: limit, AfterID: after})
	if err != nil {
		return nil, err
	}
	page := pageOf(list, more, toAPIAlbum)
	return &page, nil
}

func (b mcpBackend) People(ctx context.Context, libraryID, after string, limit int) (*api.Page[api.Person], error) {
	list, more, err := b.s.people.List(ctx, b.p, people.ListInput{LibraryID: libraryID}, query.Page{Limit: limit, AfterID: after})
	if err != nil {
		return nil, err
	}
	page := pageOf(list, more, toAPIPerson)
	return &page, nil
}

func (b mcpBackend) Libraries(ctx context.Context) ([]api.Library, error) {
	var out []api.Library
	pg := query.Page{Limit: maxLimit}
	for {
		ms, more, err := b.s.libs.List(ctx, b.p, libraries.ListLive, pg)
		if err != nil {
			return nil, err
		}
		out = append(out, pageOf(ms, more, toAPILibrary).Data...)
		if !more || len(ms) == 0 {
			return out, nil
		}
		pg.AfterID = ms[len(ms)-1].Library.ID
	}
}

func (b mcpBackend) CreateAlbum(ctx context.Context, libraryID, name string) (*api.Album, bool, error) {
	a, created, err := b.s.albums.Create(ctx, b.p, albums.CreateInput{LibraryID: libraryID,
		LibraryLoc: []any{"arguments", "library_id"}, Name: name})
	if err != nil {
		return nil, false, err
	}
	out := toAPIAlbum(a)
	return &out, created, nil
}

func (b mcpBackend) AddToAlbum(ctx context.Context, albumID string, assetIDs []string) (*api.Album, error) {
	return b.album(b.s.albums.AddAssets(ctx, b.p, albumID, assetIDs))
}

func (b mcpBackend) RemoveFromAlbum(ctx context.Context, albumID string, assetIDs []string) (*api.Album, error) {
	return b.album(b.s.albums.RemoveAssets(ctx, b.p, albumID, assetIDs))
}

func (mcpBackend) album(a *catalog.Album, err error) (*api.Album, error) {
	if err != nil {
		return nil, err
	}
	out := toAPIAlbum(a)
	return &out, nil
}

func (b mcpBackend) BulkUpdate(ctx context.Context, updates []api.AssetUpdate) error {
	list := make([]assets.Update, len(updates))
	for i, u := range updates {
		list[i] = assets.Update{ID: u.ID, Change: fromAPIChange(u.Change)}
	}
	return b.s.assets.BulkUpdate(ctx, b.p, list)
}

// Trash and Restore take the library like the HTTP bodies do: when one
// is named, every asset must be in it (else 422; a library the caller
// cannot read is 404), and nothing is written otherwise.
func (b mcpBackend) Trash(ctx context.Context, libraryID string, ids []string) error {
	return b.s.assets.TrashIn(ctx, b.p, libraryID, ids)
}

func (b mcpBackend) Restore(ctx context.Context, libraryID string, ids []string) error {
	return b.s.assets.RestoreIn(ctx, b.p, libraryID, ids)
}

func (b mcpBackend) RenamePerson(ctx context.Context, id, name string) (*api.Person, error) {
	return b.person(b.s.people.Patch(ctx, b.p, id, people.Update{Name: catalog.Patch[string]{Set: true, Value: &name}}))
}

func (b mcpBackend) MergePeople(ctx context.Context, into string, ids []string) (*api.Person, error) {
	return b.person(b.s.people.Merge(ctx, b.p, into, ids))
}

func (mcpBackend) person(p *catalog.Person, err error) (*api.Person, error) {
	if err != nil {
		return nil, err
	}
	out := toAPIPerson(p)
	return &out, nil
}

func (b mcpBackend) Counts(ctx context.Context, q mcp.Query, bucket, after string, limit int) (*api.Page[api.AssetCount], error) {
	f, err := mcpFilter(q)
	if err != nil {
		return nil, err
	}
	if bucket == "" {
		bucket = string(query.BucketMonth)
	}
	layout, ok := bucketLayouts[query.CountBucket(bucket)]
	if !ok {
		return nil, catalog.InvalidField("enum", "bucket must be day, month or year", bucket, "arguments", "bucket")
	}
	cq := query.CountsQuery{Filter: f, Bucket: query.CountBucket(bucket), Limit: limit}
	if after != "" {
		t, err := time.Parse(layout, after)
		if err != nil {
			return nil, catalog.InvalidField("value_error", "cursor must be the next_cursor of the previous answer",
				after, "arguments", "cursor")
		}
		cq.After = &t
	}
	counts, more, err := b.s.assets.Counts(ctx, b.p, assets.CountsInput{LibraryID: q.LibraryID, Query: cq})
	if err != nil {
		return nil, err
	}
	page := pageOf(counts, more, func(c *query.BucketCount) api.AssetCount {
		return api.AssetCount{Bucket: c.Start.Format(layout), Count: c.Count}
	})
	return &page, nil
}

func (b mcpBackend) GeoClusters(ctx context.Context, q mcp.Query, cellSize float64) ([]api.GeoCluster, error) {
	if q.BBox == "" {
		return nil, catalog.InvalidField("missing", "bbox is required", nil, "arguments", "bbox")
	}
	f, err := mcpFilter(q)
	if err != nil {
		return nil, err
	}
	if !(cellSize > 0 && cellSize <= 180) {
		return nil, catalog.InvalidField("value_error", "cell_size must be greater than 0 and at most 180", cellSize,
			"arguments", "cell_size")
	}
	cells, err := b.s.assets.GeoClusters(ctx, b.p, assets.ClustersInput{LibraryID: q.LibraryID, Filter: f, CellSize: cellSize})
	if err != nil {
		return nil, err
	}
	out := make([]api.GeoCluster, len(cells))
	for i, g := range cells {
		out[i] = api.GeoCluster{Latitude: g.Latitude, Longitude: g.Longitude, Count: g.Count, RepresentativeAssetID: g.RepresentativeID}
	}
	return out, nil
}

// mcpFilter reads a tool's filters with the parsers of the query string.
func mcpFilter(q mcp.Query) (query.AssetFilter, error) {
	var f query.AssetFilter
	switch q.MediaType {
	case "", "image", "video":
		f.MediaType = catalog.MediaType(q.MediaType)
	default:
		return f, catalog.InvalidField("enum", "media_type must be image or video", q.MediaType, "arguments", "media_type")
	}
	var err error
	if f.Capture, err = catalog.ParseCaptureRange(q.After, q.Before); err != nil {
		return f, err
	}
	radius := ""
	if q.Radius != 0 {
		radius = strconv.FormatFloat(q.Radius, 'f', -1, 64)
	}
	if f.Location, err = catalog.ParseLocation(q.BBox, q.Center, radius); err != nil {
		return f, err
	}
	f.AlbumID = q.AlbumID
	if len(q.PersonIDs) > 100 {
		return f, catalog.InvalidField("too_long", "person_ids may name at most 100 people", nil, "arguments", "person_ids")
	}
	f.PersonIDs = slices.Compact(slices.Sorted(slices.Values(q.PersonIDs)))
	return f, nil
}
