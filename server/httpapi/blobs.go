package httpapi

import (
	"fmt"
	"io"
	"os"

	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/blob"
)

// SendBlob makes an opened blob the response body and takes it over
// (closes it), for GET and HEAD alike (HEAD: the same status and headers,
// no body). It honours one byte range (byteRange); a range beyond the end
// is a 416 error with Content-Range: bytes */size. A file on the local
// disk goes through fasthttp's file server (sendfile), given the range
// as it was resolved here; an object in a bucket is streamed through one
// ranged read. Every file is sent with X-Content-Type-Options: nosniff,
// so a browser never runs an upload as the HTML or script it may
// resemble. The caller sets the content type (and any
// Content-Disposition) once sendBlob has succeeded.
func SendBlob(c *fiber.Ctx, f blob.File) error {
	info, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return err
	}
	size := info.Size()
	c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	c.Set(fiber.HeaderAcceptRanges, "bytes")
	r := byteRange(c.Get(fiber.HeaderRange), size)
	if r.unsatisfiable {
		_ = f.Close()
		c.Set(fiber.HeaderContentRange, fmt.Sprintf("bytes */%d", size))
		return fiber.NewError(fiber.StatusRequestedRangeNotSatisfiable,
			fmt.Sprintf("the range is not within the file's %d bytes", size))
	}
	if lf, ok := f.(*os.File); ok {
		// fasthttp would read a range by rules of its own (bytes=-0 as
		// the whole file, a 416 without Content-Range): give it the one
		// resolved here.
		if r.whole {
			c.Request().Header.Del(fiber.HeaderRange)
		} else {
			c.Request().Header.Set(fiber.HeaderRange, fmt.Sprintf("bytes=%d-%d", r.first, r.last))
		}
		path := lf.Name()
		_ = lf.Close()
		return c.SendFile(path, false)
	}
	start, n := int64(0), size
	if !r.whole {
		start, n = r.first, r.last-r.first+1
		c.Set(fiber.HeaderContentRange, fmt.Sprintf("bytes %d-%d/%d", r.first, r.last, size))
		c.Status(fiber.StatusPartialContent)
	}
	if c.Method() == fiber.MethodHead {
		_ = f.Close()
		c.Response().SkipBody = true
		c.Response().Header.SetContentLength(int(n))
		return nil
	}
	if start > 0 {
		if _, err := f.Seek(start, io.SeekStart); err != nil {
			_ = f.Close()
			return err
		}
	}
	// One streamed read from start (one ranged GET of the object);
	// fasthttp closes it once sent, or when the client is gone.
	c.Response().SetBodyStream(&blobBody{io.LimitReader(f, n), f}, int(n))
	return nil
}

// blobBody is the part of an opened blob a response sends.
type blobBody struct {
	io.Reader
	io.Closer
}
