package client

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/photoctl/photoctl/server/api"
)

// Single-page calls for callers that page lazily as a user scrolls (the
// TUI): each returns up to limit items after the item with id after ("" for
// the first page), and has_more.

// SearchPage returns one page of the hits of q (GET /api/search).
func (c *Client) SearchPage(ctx context.Context, q SearchQuery, after string, limit int) (*api.Page[api.SearchHit], error) {
	v := url.Values{}
	for _, f := range q.fields() {
		v.Set(f.name, f.value)
	}
	return pageOf[api.SearchHit](ctx, c, "/api/search", v, after, limit)
}

// AlbumsPage returns one page of the albums q selects, newest first.
func (c *Client) AlbumsPage(ctx context.Context, q AlbumQuery, after string, limit int) (*api.Page[api.Album], error) {
	return pageOf[api.Album](ctx, c, "/api/albums", q.values(), after, limit)
}

// PeoplePage returns one page of the people q selects, newest first.
func (c *Client) PeoplePage(ctx context.Context, q PersonQuery, after string, limit int) (*api.Page[api.Person], error) {
	return pageOf[api.Person](ctx, c, "/api/people", q.values(), after, limit)
}

// TasksPage returns one page of the tasks q selects, newest first.
func (c *Client) TasksPage(ctx context.Context, q TaskQuery, after string, limit int) (*api.Page[api.Task], error) {
	return pageOf[api.Task](ctx, c, "/api/tasks", q.values(), after, limit)
}

// maxVariantBytes bounds ReadVariant: a thumbnail is a few tens of KiB.
const maxVariantBytes = 16 << 20

// ReadVariant returns the bytes of a rendering of an image (thumbnail,
// preview or fullsize), at most 16 MiB.
func (c *Client) ReadVariant(ctx context.Context, id, name string) ([]byte, error) {
	d, err := c.DownloadVariant(ctx, id, name)
	if err != nil {
		return nil, err
	}
	defer d.Body.Close()
	data, err := io.ReadAll(io.LimitReader(d.Body, maxVariantBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read %s of %s: %w", name, id, err)
	}
	if len(data) > maxVariantBytes {
		return nil, fmt.Errorf("read %s of %s: larger than %d bytes", name, id, maxVariantBytes)
	}
	return data, nil
}

// AssetScope narrows the asset list to an album or to assets showing all of
// some people (GET /api/assets album_id, person_ids).
type AssetScope struct {
	AlbumID   string
	PersonIDs []string
}

// ScopedAssetsPage is AssetsPage narrowed by scope, in the list's capture
// order.
func (c *Client) ScopedAssetsPage(ctx context.Context, q AssetQuery, scope AssetScope, after string, limit int) (*api.Page[api.Asset], error) {
	v := q.values()
	setIf(v, "album_id", scope.AlbumID)
	if len(scope.PersonIDs) > 0 {
		v.Set("person_ids", strings.Join(scope.PersonIDs, ","))
	}
	return pageOf[api.Asset](ctx, c, "/api/assets", v, after, limit)
}

// LibrariesPage returns one page of the caller's live libraries.
func (c *Client) LibrariesPage(ctx context.Context, after string, limit int) (*api.Page[api.Library], error) {
	return pageOf[api.Library](ctx, c, "/api/libraries", nil, after, limit)
}
