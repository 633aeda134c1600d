package client

import (
	"context"
	"fmt"
	"io"
)

// VariantBytes reads a rendering of an image whole, refusing one larger
// than max bytes, and returns it with its media type (for the `photoctl
// mcp` view tool, which sends the image inline). The single-page list calls
// it also uses are in tui_support.go.
func (c *Client) VariantBytes(ctx context.Context, id, name string, max int64) ([]byte, string, error) {
	d, err := c.DownloadVariant(ctx, id, name)
	if err != nil {
		return nil, "", err
	}
	defer d.Body.Close()
	data, err := io.ReadAll(io.LimitReader(d.Body, max+1))
	if err != nil {
		return nil, "", fmt.Errorf("read %s of %s: %w", name, id, err)
	}
	if int64(len(data)) > max {
		return nil, "", fmt.Errorf("read %s of %s: larger than %d bytes", name, id, max)
	}
	return data, d.ContentType, nil
}
