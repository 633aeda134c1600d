package client

import (
	"context"
	"iter"
	"net/http"
	"net/url"

	"github.com/photoctl/photoctl/server/api"
)

// Albums iterates over a library's albums, newest first.
func (c *Client) Albums(ctx context.Context, libraryID string) iter.Seq2[api.Album, error] {
	return walk(ctx, c, "/api/albums", libraryQuery(libraryID), "", 0, func(a api.Album) string { return a.ID })
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
	req := api.AlbumCreateRequest{Name: name}
	if libraryID != "" {
		req.LibraryID = &libraryID
	}
	var a api.Album
	resp, err := c.do(ctx, &call{method: "POST", path: "/api/albums", body: req, out: &a, idempotent: true})
	if err != nil {
		return nil, false, err
	}
	return &a, resp.StatusCode() == http.StatusCreated, nil
}

// AddAlbumAssets adds assets to an album, MaxBulkIDs per request; assets
// already in it stay as they are. It returns the album after the last
// request.
func (c *Client) AddAlbumAssets(ctx context.Context, albumID string, assetIDs []string) (*api.Album, error) {
	var a api.Album
	for start := 0; start < len(assetIDs); start += MaxBulkIDs {
		batch := assetIDs[start:min(start+MaxBulkIDs, len(assetIDs))]
		if _, err := c.do(ctx, &call{method: "POST", path: albumPath(albumID) + "/assets",
			body: api.AlbumAssetsRequest{AssetIDs: batch}, out: &a, idempotent: true}); err != nil {
			return nil, err
		}
	}
	return &a, nil
}

func albumPath(id string) string { return "/api/albums/" + url.PathEscape(id) }
