package client

import (
	"context"
	"iter"
	"net/url"

	"github.com/photoctl/photoctl/server/api"
)

// Versions iterates over an asset's versions, newest first; the original
// comes last.
func (c *Client) Versions(ctx context.Context, assetID string) iter.Seq2[api.Version, error] {
	return walk(ctx, c, assetPath(assetID)+"/versions", nil, "", 0, func(v api.Version) string { return v.ID })
}

// AppendVersion uploads an edited rendering of an asset; it becomes the
// current one.
func (c *Client) AppendVersion(ctx context.Context, assetID string, file FilePart, progress func(int64)) (*api.Version, error) {
	var v api.Version
	_, err := c.do(ctx, &call{method: "POST", path: assetPath(assetID) + "/versions", out: &v,
		stream: streamOnce(nil, nil, "file", file, progress)})
	if err != nil {
		return nil, err
	}
	return &v, nil
}

// ReplaceVersion replaces the file of a version (not the original).
func (c *Client) ReplaceVersion(ctx context.Context, assetID, versionID string, file FilePart, progress func(int64)) (*api.Version, error) {
	var v api.Version
	_, err := c.do(ctx, &call{method: "PUT", path: versionPath(assetID, versionID), out: &v, idempotent: true,
		stream: streamOnce(nil, nil, "file", file, progress)})
	if err != nil {
		return nil, err
	}
	return &v, nil
}

// RevertVersion makes a version, or the original, the current one.
func (c *Client) RevertVersion(ctx context.Context, assetID, versionID string) (*api.Version, error) {
	var v api.Version
	if _, err := c.do(ctx, &call{method: "POST", path: versionPath(assetID, versionID) + "/revert", out: &v, idempotent: true}); err != nil {
		return nil, err
	}
	return &v, nil
}

// DeleteVersion deletes a version (not the original).
func (c *Client) DeleteVersion(ctx context.Context, assetID, versionID string) error {
	_, err := c.do(ctx, &call{method: "DELETE", path: versionPath(assetID, versionID), idempotent: true})
	return err
}

func versionPath(assetID, versionID string) string {
	return assetPath(assetID) + "/versions/" + url.PathEscape(versionID)
}
