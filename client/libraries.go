package client

import (
	"context"
	"iter"
	"net/http"
	"net/url"

	"github.com/photoctl/photoctl/server/api"
)

// Libraries iterates over the caller's libraries with the caller's role
// (GET /api/libraries), newest first.
func (c *Client) Libraries(ctx context.Context) iter.Seq2[api.Library, error] {
	return c.LibrariesIn(ctx, "")
}

// LibrariesIn iterates over the caller's libraries in a state: live ("",
// the default), trashed or all.
func (c *Client) LibrariesIn(ctx context.Context, state string) iter.Seq2[api.Library, error] {
	q := url.Values{}
	setIf(q, "state", state)
	return walk(ctx, c, "/api/libraries", q, "", 0, func(l api.Library) string { return l.ID })
}

// Library returns one library.
func (c *Client) Library(ctx context.Context, id string) (*api.Library, error) {
	var l api.Library
	if _, err := c.do(ctx, &call{method: "GET", path: "/api/libraries/" + url.PathEscape(id), idempotent: true, out: &l}); err != nil {
		return nil, err
	}
	return &l, nil
}

// CreateLibrary creates a library, or returns the caller's library of that
// name (created false) as the named-create rule says. Session only.
func (c *Client) CreateLibrary(ctx context.Context, name string) (lib *api.Library, created bool, err error) {
	var l api.Library
	resp, err := c.do(ctx, &call{method: "POST", path: "/api/libraries", body: api.LibraryCreateRequest{Name: name}, out: &l})
	if err != nil {
		return nil, false, err
	}
	return &l, resp.StatusCode() == http.StatusCreated, nil
}

// RenameLibrary renames a library (owner only, session only).
func (c *Client) RenameLibrary(ctx context.Context, id, name string) (*api.Library, error) {
	var l api.Library
	if _, err := c.do(ctx, &call{method: "PATCH", path: "/api/libraries/" + url.PathEscape(id),
		body: api.LibraryUpdateRequest{Name: &name}, out: &l}); err != nil {
		return nil, err
	}
	return &l, nil
}

// TrashLibrary moves a library to the trash, hiding it and its content
// from every member (owner only, session only). The owner's last live
// library cannot be trashed (409 last_live_library).
func (c *Client) TrashLibrary(ctx context.Context, id string) (*api.Library, error) {
	return c.libraryAction(ctx, id, "trash")
}

// RestoreLibrary restores a trashed library with its content (owner only,
// session only).
func (c *Client) RestoreLibrary(ctx context.Context, id string) (*api.Library, error) {
	return c.libraryAction(ctx, id, "restore")
}

// SwitchLibrary makes a library the caller's default (the preference
// default_library_id); the server still wants library_id where the caller
// has several.
func (c *Client) SwitchLibrary(ctx context.Context, id string) (*api.Library, error) {
	return c.libraryAction(ctx, id, "switch")
}

func (c *Client) libraryAction(ctx context.Context, id, action string) (*api.Library, error) {
	var l api.Library
	if _, err := c.do(ctx, &call{method: "POST", path: libraryPath(id) + "/" + action,
		out: &l, idempotent: true}); err != nil {
		return nil, err
	}
	return &l, nil
}
