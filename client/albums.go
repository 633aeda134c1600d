package client

import (
	"context"
	"iter"
	"net/http"
	"net/url"

	"github.com/photoctl/photoctl/server/api"
)

// AlbumQuery filters the album list. Zero values are left out.
type AlbumQuery struct {
	LibraryID string
	AssetID   string // only the albums that show this asset
}

func (q AlbumQuery) values() url.Values {
	v := url.Values{}
	setIf(v, "library_id", q.LibraryID)
	setIf(v, "asset_id", q.AssetID)
	return v
}

// Albums iterates over a library's albums, newest first.
func (c *Client) Albums(ctx context.Context, libraryID string) iter.Seq2[api.Album, error] {
	return c.AlbumsWhere(ctx, AlbumQuery{LibraryID: libraryID})
}

// AlbumsWhere iterates over the albums q selects, newest first.
func (c *Client) AlbumsWhere(ctx context.Context, q AlbumQuery) iter.Seq2[api.Album, error] {
	return walk(ctx, c, "/api/albums", q.values(), "", 0, func(a api.Album) string { return a.ID })
}

// Album returns one album.
func (c *Client) Album(ctx context.Context, id string) (*api.Album, error) {
	var a api.Album
	if _, err := c.do(ctx, &call{method: "GET", path: albumPath(id), idempotent: true, out: &a}); err != nil {
		return nil, err
	}
	return &a, nil
}

// CreateAlbum creates an album, or returns the library's album of that
// name (created false), as the named-create rule says.
func (c *Client) CreateAlbum(ctx context.Context, libraryID, name string) (album *api.Album, created bool, err error) {
	return c.CreateAlbumWith(ctx, api.AlbumCreateRequest{LibraryID: optionalID(libraryID), Name: name})
}

// CreateAlbumWith creates an album from a full request (a description
// too); an album of that name whose description differs is a 409.
func (c *Client) CreateAlbumWith(ctx context.Context, req api.AlbumCreateRequest) (album *api.Album, created bool, err error) {
	var a api.Album
	resp, err := c.do(ctx, &call{method: "POST", path: "/api/albums", body: req, out: &a, idempotent: true})
	if err != nil {
		return nil, false, err
	}
	return &a, resp.StatusCode() == http.StatusCreated, nil
}

// UpdateAlbum renames an album or edits its description: fields left
// unset stay, a description set to nil empties it.
func (c *Client) UpdateAlbum(ctx context.Context, id string, u api.AlbumUpdateRequest) (*api.Album, error) {
	body := map[string]any{}
	setOptional(body, "name", u.Name)
	setOptional(body, "description", u.Description)
	var a api.Album
	if _, err := c.do(ctx, &call{method: "PATCH", path: albumPath(id), body: body, out: &a, idempotent: true}); err != nil {
		return nil, err
	}
	return &a, nil
}

// DeleteAlbum deletes an album and its links; the assets stay.
func (c *Client) DeleteAlbum(ctx context.Context, id string) error {
	_, err := c.do(ctx, &call{method: "DELETE", path: albumPath(id), idempotent: true})
	return err
}

// AddAlbumAssets adds assets to an album, MaxBulkIDs per request; assets
// already in it stay as they are. It returns the album after the last
// request.
func (c *Client) AddAlbumAssets(ctx context.Context, albumID string, assetIDs []string) (*api.Album, error) {
	return c.albumAssets(ctx, "POST", albumID, assetIDs)
}

// RemoveAlbumAssets removes assets from an album, MaxBulkIDs per request;
// ids not in the album are ignored. It returns the album after the last
// request.
func (c *Client) RemoveAlbumAssets(ctx context.Context, albumID string, assetIDs []string) (*api.Album, error) {
	return c.albumAssets(ctx, "DELETE", albumID, assetIDs)
}

func (c *Client) albumAssets(ctx context.Context, method, albumID string, assetIDs []string) (*api.Album, error) {
	var a api.Album
	for start := 0; start < len(assetIDs); start += MaxBulkIDs {
		batch := assetIDs[start:min(start+MaxBulkIDs, len(assetIDs))]
		if _, err := c.do(ctx, &call{method: method, path: albumPath(albumID) + "/assets",
			body: api.AlbumAssetsRequest{AssetIDs: batch}, out: &a, idempotent: true}); err != nil {
			return nil, err
		}
	}
	return &a, nil
}

// SetAlbumCover chooses the album's cover among its live assets; nil goes
// back to the automatic cover.
func (c *Client) SetAlbumCover(ctx context.Context, albumID string, assetID *string) (*api.Album, error) {
	var a api.Album
	if _, err := c.do(ctx, &call{method: "PUT", path: albumPath(albumID) + "/cover",
		body: api.AlbumCoverRequest{AssetID: api.Optional[string]{Set: true, Value: assetID}}, out: &a,
		idempotent: true}); err != nil {
		return nil, err
	}
	return &a, nil
}

func albumPath(id string) string { return "/api/albums/" + url.PathEscape(id) }

// setOptional puts a PATCH field into body when it is set (nil is an
// explicit null): api.Optional marshals an unset field as null too, which
// would clear it.
func setOptional[T any](body map[string]any, key string, o api.Optional[T]) {
	if o.Set {
		body[key] = o
	}
}

// optionalID is a request's optional id: nil for "".
func optionalID(id string) *string {
	if id == "" {
		return nil
	}
	return &id
}
