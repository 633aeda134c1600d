package client

import (
	"context"
	"iter"
	"net/http"
	"net/url"

	"github.com/photoctl/photoctl/server/api"
)

// Stacks iterates over a library's stacks, newest first.
func (c *Client) Stacks(ctx context.Context, libraryID string) iter.Seq2[api.Stack, error] {
	return walk(ctx, c, "/api/stacks", libraryQuery(libraryID), "", 0, func(s api.Stack) string { return s.ID })
}

// Stack returns one stack.
func (c *Client) Stack(ctx context.Context, id string) (*api.Stack, error) {
	var s api.Stack
	if _, err := c.do(ctx, &call{method: "GET", path: stackPath(id), idempotent: true, out: &s}); err != nil {
		return nil, err
	}
	return &s, nil
}

// CreateStack stacks 2 to 100 live assets; the cover is the first listed
// unless coverID names another of them. An asset already in a stack is a
// 409.
func (c *Client) CreateStack(ctx context.Context, libraryID string, assetIDs []string, coverID string) (*api.Stack, error) {
	req := api.StackCreateRequest{LibraryID: optionalID(libraryID), AssetIDs: assetIDs, CoverAssetID: optionalID(coverID)}
	var s api.Stack
	if _, err := c.do(ctx, &call{method: "POST", path: "/api/stacks", body: req, out: &s}); err != nil {
		return nil, err
	}
	return &s, nil
}

// UpdateStack changes the cover, adds and removes members. When fewer
// than two members are left the server dissolves the stack: dissolved is
// true and stack nil.
func (c *Client) UpdateStack(ctx context.Context, id string, u api.StackUpdateRequest) (stack *api.Stack, dissolved bool, err error) {
	var s api.Stack
	resp, err := c.do(ctx, &call{method: "PATCH", path: stackPath(id), body: u, out: &s})
	if err != nil {
		return nil, false, err
	}
	if resp.StatusCode() == http.StatusNoContent {
		return nil, true, nil
	}
	return &s, false, nil
}

// DeleteStack unstacks: the assets stay, ungrouped.
func (c *Client) DeleteStack(ctx context.Context, id string) error {
	_, err := c.do(ctx, &call{method: "DELETE", path: stackPath(id), idempotent: true})
	return err
}

func stackPath(id string) string { return "/api/stacks/" + url.PathEscape(id) }
