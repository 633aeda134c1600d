package client

import (
	"context"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/go-resty/resty/v2"
)

// Download is an open download. The caller reads Body and closes it.
type Download struct {
	Body io.ReadCloser
	// Offset is where Body starts in the file: the requested offset when
	// the server honoured the range (206), else 0 (the whole file, 200).
	Offset int64
	// Size is the length of the whole file, -1 if the server did not say.
	Size        int64
	FileName    string // from Content-Disposition, "" if none
	ETag        string
	ContentType string
}

// DownloadOriginal opens the original file of an asset. With offset > 0
// it asks for the rest of the file from there, on condition (If-Range)
// that it still has the ETag etag; check Offset to see whether the server
// sent the rest or, the file having changed, all of it.
func (c *Client) DownloadOriginal(ctx context.Context, id string, offset int64, etag string) (*Download, error) {
	return c.download(ctx, assetPath(id)+"/original", offset, etag)
}

// DownloadVariant opens a rendering of an image: thumbnail, preview or
// fullsize.
func (c *Client) DownloadVariant(ctx context.Context, id, name string) (*Download, error) {
	return c.download(ctx, assetPath(id)+"/variants/"+url.PathEscape(name), 0, "")
}

// DownloadVersion opens the file of one version of an asset, like
// DownloadOriginal.
func (c *Client) DownloadVersion(ctx context.Context, assetID, versionID string, offset int64, etag string) (*Download, error) {
	return c.download(ctx, versionPath(assetID, versionID)+"/file", offset, etag)
}

func (c *Client) download(ctx context.Context, path string, offset int64, etag string) (*Download, error) {
	header := map[string]string{"Accept": "*/*"}
	if offset > 0 {
		header["Range"] = fmt.Sprintf("bytes=%d-", offset)
		if etag != "" {
			header["If-Range"] = etag
		}
	}
	resp, err := c.do(ctx, &call{method: "GET", path: path, header: header, raw: true, idempotent: true})
	if err != nil {
		return nil, err
	}
	return newDownload(resp, offset)
}

func newDownload(resp *resty.Response, offset int64) (*Download, error) {
	h := resp.Header()
	d := &Download{Body: resp.RawBody(), Size: -1, ETag: h.Get("ETag"), ContentType: h.Get("Content-Type")}
	if _, params, err := mime.ParseMediaType(h.Get("Content-Disposition")); err == nil {
		d.FileName = params["filename"]
	}
	switch resp.StatusCode() {
	case http.StatusPartialContent:
		start, total, ok := parseContentRange(h.Get("Content-Range"))
		if !ok || start != offset {
			d.Body.Close()
			return nil, fmt.Errorf("download: unexpected Content-Range %q for offset %d", h.Get("Content-Range"), offset)
		}
		d.Offset, d.Size = start, total
	default:
		if n := resp.RawResponse.ContentLength; n >= 0 {
			d.Size = n
		}
	}
	return d, nil
}

// parseContentRange reads "bytes START-END/TOTAL" (TOTAL may be *).
func parseContentRange(v string) (start, total int64, ok bool) {
	rest, found := strings.CutPrefix(v, "bytes ")
	if !found {
		return 0, 0, false
	}
	rng, size, found := strings.Cut(rest, "/")
	if !found {
		return 0, 0, false
	}
	first, _, found := strings.Cut(rng, "-")
	if !found {
		return 0, 0, false
	}
	start, err := strconv.ParseInt(first, 10, 64)
	if err != nil {
		return 0, 0, false
	}
	total = -1
	if size != "*" {
		if total, err = strconv.ParseInt(size, 10, 64); err != nil {
			return 0, 0, false
		}
	}
	return start, total, true
}
