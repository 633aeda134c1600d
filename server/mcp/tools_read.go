package mcp

import (
	"context"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/catalog"
)

// toolTable is every tool: read tools, then write tools (tools_write.go).
var toolTable = append(readTools, writeTools...)

var readTools = []tool{
	{name: "search_assets", action: catalog.ActionSearch, cost: costSearch, add: add(searchAssets),
		desc: "Search photos and videos, best match first. Give at least one criterion: query (words), album_id, " +
			"person_ids or a capture-time bound; bbox or center+radius and media_type narrow further. " +
			"A stack of shots shows once, as its cover; within album_id every asset shows. " +
			"Answers concise summaries; pass next_cursor back as cursor for more."},
	{name: "get_asset", action: catalog.ActionAssetRead, cost: costRead, add: add(getAsset),
		desc: "One asset's details: capture time, camera, place and coordinates, rating, descriptions, people."},
	{name: "view_asset", action: catalog.ActionAssetRead, cost: costView, add: addRaw(viewAsset),
		desc: "Look at a photo: returns its preview image (about 1440 px). Videos and photos still processing have none."},
	{name: "list_albums", action: catalog.ActionAlbumRead, cost: costRead, add: add(listAlbums),
		desc: "A library's albums, newest first, with their asset counts and date ranges."},
	{name: "list_people", action: catalog.ActionPersonRead, cost: costRead, add: add(listPeople),
		desc: "A library's people (recognised faces grouped per person), newest first; unnamed ones have no name."},
	{name: "list_libraries", action: catalog.ActionLibraryRead, cost: costRead, add: add(listLibraries),
		desc: "The libraries this credential reaches, with the caller's role (owner, collaborator, viewer)."},
	{name: "count_assets", action: catalog.ActionAssetRead, cost: costRead, add: add(countAssets),
		desc: "How many assets were captured per day, month or year (newest first), optionally within a time range. " +
			"A stack of shots counts once (its cover), as lists show it."},
	{name: "geo_clusters", action: catalog.ActionAssetRead, cost: costSearch, add: add(geoClusters),
		desc: "Where photos were taken: the assets with coordinates inside bbox grouped into cells of cell_size degrees " +
			"(at most 1000 cells: use a larger cell_size for a larger box). A stack of shots counts once (its cover)."},
}

// add adapts a typed tool function to the SDK, which derives the input and
// output schemas from In and Out and validates the arguments.
func add[In, Out any](fn func(context.Context, Backend, In) (Out, error)) func(*sdk.Server, Backend, *sdk.Tool) {
	return func(s *sdk.Server, b Backend, t *sdk.Tool) {
		sdk.AddTool(s, t, func(ctx context.Context, _ *sdk.CallToolRequest, in In) (*sdk.CallToolResult, Out, error) {
			out, err := fn(ctx, b, in)
			if err != nil {
				return nil, out, describe(err)
			}
			return nil, out, nil
		})
	}
}

// addRaw adapts a tool that builds its own result (content such as images)
// and declares no output schema.
func addRaw[In any](fn func(context.Context, Backend, In) (*sdk.CallToolResult, error)) func(*sdk.Server, Backend, *sdk.Tool) {
	return func(s *sdk.Server, b Backend, t *sdk.Tool) {
		sdk.AddTool(s, t, func(ctx context.Context, _ *sdk.CallToolRequest, in In) (*sdk.CallToolResult, any, error) {
			res, err := fn(ctx, b, in)
			if err != nil {
				return nil, nil, describe(err)
			}
			return res, nil, nil
		})
	}
}

// Paging is the cursor and size of a list tool.
type Paging struct {
	Cursor string `json:"cursor,omitempty" jsonschema:"next_cursor of the previous answer, for the next page"`
	Limit  int    `json:"limit,omitempty" jsonschema:"items per page, 1 to 50 (default 20)"`
}

func (p Paging) size() (int, error) {
	switch {
	case p.Limit == 0:
		return 20, nil
	case p.Limit < 1 || p.Limit > maxToolPage:
		return 0, fmt.Errorf("limit must be 1 to %d", maxToolPage)
	}
	return p.Limit, nil
}

// maxToolPage keeps answers short enough for an assistant's context.
const maxToolPage = 50

// SearchInput is search_assets' arguments.
type SearchInput struct {
	Query
	Paging
}

// AssetPage is a page of asset summaries.
type AssetPage struct {
	Assets     []AssetSummary `json:"assets"`
	NextCursor string         `json:"next_cursor,omitempty" jsonschema:"present when more follow"`
}

func searchAssets(ctx context.Context, b Backend, in SearchInput) (AssetPage, error) {
	n, err := in.size()
	if err != nil {
		return AssetPage{}, err
	}
	page, err := b.Search(ctx, in.Query, in.Cursor, n)
	if err != nil {
		return AssetPage{}, err
	}
	out := AssetPage{Assets: make([]AssetSummary, 0, len(page.Data))}
	for i := range page.Data {
		out.Assets = append(out.Assets, summarize(&page.Data[i].Asset, page.Data[i].Score))
	}
	if page.HasMore && len(page.Data) > 0 {
		out.NextCursor = page.Data[len(page.Data)-1].ID
	}
	return out, nil
}

// AssetInput names one asset.
type AssetInput struct {
	ID string `json:"id" jsonschema:"the asset (asset_...)"`
}

func getAsset(ctx context.Context, b Backend, in AssetInput) (AssetDetail, error) {
	a, err := b.Asset(ctx, in.ID)
	if err != nil {
		return AssetDetail{}, err
	}
	return detail(a), nil
}

// viewAsset answers image content, not structured output.
func viewAsset(ctx context.Context, b Backend, in AssetInput) (*sdk.CallToolResult, error) {
	data, mime, err := b.Preview(ctx, in.ID)
	if err != nil {
		return nil, err
	}
	return &sdk.CallToolResult{Content: []sdk.Content{
		&sdk.ImageContent{Data: data, MIMEType: mime},
		&sdk.TextContent{Text: fmt.Sprintf("preview of %s (%s, %d bytes)", in.ID, mime, len(data))},
	}}, nil
}

// LibraryPageInput is a list tool's arguments.
type LibraryPageInput struct {
	LibraryID string `json:"library_id,omitempty" jsonschema:"the library (lib_...); optional with one library or a default"`
	Paging
}

// AlbumPage is a page of albums.
type AlbumPage struct {
	Albums     []AlbumSummary `json:"albums"`
	NextCursor string         `json:"next_cursor,omitempty"`
}

func listAlbums(ctx context.Context, b Backend, in LibraryPageInput) (AlbumPage, error) {
	n, err := in.size()
	if err != nil {
		return AlbumPage{}, err
	}
	page, err := b.Albums(ctx, in.LibraryID, in.Cursor, n)
	if err != nil {
		return AlbumPage{}, err
	}
	out := AlbumPage{Albums: make([]AlbumSummary, 0, len(page.Data))}
	for i := range page.Data {
		out.Albums = append(out.Albums, albumSummary(&page.Data[i]))
	}
	out.NextCursor = next(page.HasMore, out.Albums, func(a AlbumSummary) string { return a.ID })
	return out, nil
}

// PeoplePage is a page of people.
type PeoplePage struct {
	People     []PersonSummary `json:"people"`
	NextCursor string          `json:"next_cursor,omitempty"`
}

func listPeople(ctx context.Context, b Backend, in LibraryPageInput) (PeoplePage, error) {
	n, err := in.size()
	if err != nil {
		return PeoplePage{}, err
	}
	page, err := b.People(ctx, in.LibraryID, in.Cursor, n)
	if err != nil {
		return PeoplePage{}, err
	}
	out := PeoplePage{People: make([]PersonSummary, 0, len(page.Data))}
	for i := range page.Data {
		out.People = append(out.People, personSummary(&page.Data[i]))
	}
	out.NextCursor = next(page.HasMore, out.People, func(p PersonSummary) string { return p.ID })
	return out, nil
}

func next[T any](more bool, list []T, id func(T) string) string {
	if !more || len(list) == 0 {
		return ""
	}
	return id(list[len(list)-1])
}

// NoInput is the arguments of a tool that takes none.
type NoInput struct{}

// LibraryList is list_libraries' answer.
type LibraryList struct {
	Libraries []LibrarySummary `json:"libraries"`
}

func listLibraries(ctx context.Context, b Backend, _ NoInput) (LibraryList, error) {
	list, err := b.Libraries(ctx)
	if err != nil {
		return LibraryList{}, err
	}
	out := LibraryList{Libraries: make([]LibrarySummary, 0, len(list))}
	for _, l := range list {
		out.Libraries = append(out.Libraries, LibrarySummary{ID: l.ID, Name: l.Name, Role: l.Role})
	}
	return out, nil
}

// CountsInput is count_assets' arguments.
type CountsInput struct {
	LibraryID string `json:"library_id,omitempty" jsonschema:"the library (lib_...)"`
	Bucket    string `json:"bucket,omitempty" jsonschema:"day, month (default) or year"`
	After     string `json:"local_datetime_after,omitempty" jsonschema:"captured at or after, e.g. 2024-01-01T00:00:00"`
	Before    string `json:"local_datetime_before,omitempty" jsonschema:"captured before"`
	MediaType string `json:"media_type,omitempty" jsonschema:"image or video"`
	Paging
}

// CountPage is count_assets' answer.
type CountPage struct {
	Buckets    []api.AssetCount `json:"buckets"`
	NextCursor string           `json:"next_cursor,omitempty"`
}

func countAssets(ctx context.Context, b Backend, in CountsInput) (CountPage, error) {
	n, err := in.size()
	if err != nil {
		return CountPage{}, err
	}
	q := Query{LibraryID: in.LibraryID, After: in.After, Before: in.Before, MediaType: in.MediaType}
	page, err := b.Counts(ctx, q, in.Bucket, in.Cursor, n)
	if err != nil {
		return CountPage{}, err
	}
	out := CountPage{Buckets: append(make([]api.AssetCount, 0, len(page.Data)), page.Data...)}
	out.NextCursor = next(page.HasMore, out.Buckets, func(c api.AssetCount) string { return c.Bucket })
	return out, nil
}

// ClustersInput is geo_clusters' arguments.
type ClustersInput struct {
	LibraryID string  `json:"library_id,omitempty" jsonschema:"the library (lib_...)"`
	BBox      string  `json:"bbox" jsonschema:"the viewport: min_longitude,min_latitude,max_longitude,max_latitude"`
	CellSize  float64 `json:"cell_size" jsonschema:"cell size in degrees, greater than 0 and at most 180"`
	After     string  `json:"local_datetime_after,omitempty"`
	Before    string  `json:"local_datetime_before,omitempty"`
	MediaType string  `json:"media_type,omitempty" jsonschema:"image or video"`
}

// ClusterList is geo_clusters' answer.
type ClusterList struct {
	Clusters []api.GeoCluster `json:"clusters"`
}

func geoClusters(ctx context.Context, b Backend, in ClustersInput) (ClusterList, error) {
	q := Query{LibraryID: in.LibraryID, BBox: in.BBox, After: in.After, Before: in.Before, MediaType: in.MediaType}
	list, err := b.GeoClusters(ctx, q, in.CellSize)
	if err != nil {
		return ClusterList{}, err
	}
	return ClusterList{Clusters: append(make([]api.GeoCluster, 0, len(list)), list...)}, nil
}
