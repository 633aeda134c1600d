package mcp

import (
	"context"

	"github.com/photoctl/photoctl/server/api"
)

// Backend is what the tools call: the library as one caller sees it. Two
// implementations exist, so both transports share one tool table: the
// server's (server/httpapi/mcpapi: the feature services with the request's
// principal) and the CLI's (cmd/photoctl/internal/clientcmd/mcp: the client package with
// the user's credentials).
//
// Contract: every method enforces the caller's permissions exactly as the
// HTTP API does (role, library scope, credential action), answers in wire
// types, and reports failures as errors whose text is fit to show an
// assistant (validation messages, "not found", "forbidden"). Writes are
// atomic: an error means nothing was written. Pages hold at most limit
// items after the item with id after ("" for the first page).
type Backend interface {
	Search(ctx context.Context, q Query, after string, limit int) (*api.Page[api.SearchHit], error)
	// Asset returns one asset with its people and the text read in it.
	Asset(ctx context.Context, id string) (*api.AssetDetail, error)
	// Preview returns the asset's preview rendering and its MIME type.
	Preview(ctx context.Context, id string) ([]byte, string, error)
	Albums(ctx context.Context, libraryID, after string, limit int) (*api.Page[api.Album], error)
	People(ctx context.Context, libraryID, after string, limit int) (*api.Page[api.Person], error)
	Libraries(ctx context.Context) ([]api.Library, error)

	// CreateAlbum applies the named-create rule: an album of that name in
	// the library is returned with created false.
	CreateAlbum(ctx context.Context, libraryID, name string) (album *api.Album, created bool, err error)
	AddToAlbum(ctx context.Context, albumID string, assetIDs []string) (*api.Album, error)
	RemoveFromAlbum(ctx context.Context, albumID string, assetIDs []string) (*api.Album, error)
	// BulkUpdate is POST /api/assets/bulk-update: all edits or none.
	BulkUpdate(ctx context.Context, updates []api.AssetUpdate) error
	Trash(ctx context.Context, libraryID string, ids []string) error
	Restore(ctx context.Context, libraryID string, ids []string) error
	RenamePerson(ctx context.Context, id, name string) (*api.Person, error)
	MergePeople(ctx context.Context, into string, ids []string) (*api.Person, error)

	// Counts pages the capture-date buckets (day, month or year) after the
	// bucket label after.
	Counts(ctx context.Context, q Query, bucket, after string, limit int) (*api.Page[api.AssetCount], error)
	GeoClusters(ctx context.Context, q Query, cellSize float64) ([]api.GeoCluster, error)
}

// Query holds the search and filter parameters of the tools, with the
// HTTP API's names and formats so both backends pass them on unchanged.
type Query struct {
	Text      string   `json:"query,omitempty" jsonschema:"words to look for: descriptions, text in pictures, places, people and album names, file names, cameras"`
	LibraryID string   `json:"library_id,omitempty" jsonschema:"the library (lib_...); optional when the caller has one library or a default"`
	AlbumID   string   `json:"album_id,omitempty" jsonschema:"only assets in this album (album_...)"`
	PersonIDs []string `json:"person_ids,omitempty" jsonschema:"only assets showing all of these people (person_...)"`
	After     string   `json:"local_datetime_after,omitempty" jsonschema:"captured at or after this time, e.g. 2024-06-01T00:00:00 (wall clock) or with an offset"`
	Before    string   `json:"local_datetime_before,omitempty" jsonschema:"captured before this time (same form as local_datetime_after)"`
	BBox      string   `json:"bbox,omitempty" jsonschema:"place as a box: min_longitude,min_latitude,max_longitude,max_latitude"`
	Center    string   `json:"center,omitempty" jsonschema:"place as a circle centre: longitude,latitude (with radius)"`
	Radius    float64  `json:"radius,omitempty" jsonschema:"circle radius in metres (with center)"`
	MediaType string   `json:"media_type,omitempty" jsonschema:"image or video"`
}
