package httpapi

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"

	"github.com/photoctl/photoctl/server/blob"
)

// sendBlob makes an opened blob the response body and takes it over
// (closes it). A file on the local disk goes through fasthttp's file
// server (byte ranges, sendfile); an object in a bucket is streamed
// through ranged reads, honouring one byte range (a request for several
// gets the whole blob, which RFC 9110 allows). The caller sets the
// content type afterwards.
func sendBlob(c *fiber.Ctx, f blob.File) error {
	if strings.Contains(c.Get(fiber.HeaderRange), ",") {
		c.Request().Header.Del(fiber.HeaderRange) // fasthttp would refuse it with a 416
	}
	if lf, ok := f.(*os.File); ok {
		path := lf.Name()
		_ = lf.Close()
		return c.SendFile(path, false)
	}
	info, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return err
	}
	size := info.Size()
	start, n := int64(0), size
	c.Set(fiber.HeaderAcceptRanges, "bytes")
	if rh := c.Get(fiber.HeaderRange); rh != "" {
		first, last, err := fasthttp.ParseByteRange([]byte(rh), int(size))
		if err != nil {
			_ = f.Close()
			c.Set(fiber.HeaderContentRange, fmt.Sprintf("bytes */%d", size))
			return c.SendStatus(fiber.StatusRequestedRangeNotSatisfiable)
		}
		start, n = int64(first), int64(last-first+1)
		c.Set(fiber.HeaderContentRange, fmt.Sprintf("bytes %d-%d/%d", first, last, size))
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
