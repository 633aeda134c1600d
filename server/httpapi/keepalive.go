package httpapi

import (
	"errors"
	"io"
	"time"

	"github.com/gofiber/fiber/v2"
)

// Request bodies are streamed (fiber's StreamRequestBody), so fasthttp
// leaves whatever a handler did not read in the connection and, on a
// kept-alive connection, parses it as the next request: an early answer
// (401, 404, 413, 429) to an upload made the client's next request fail
// with a 400 or 431 that echoed the file's bytes. finishBody ends every
// request with its body consumed or its connection closing.

// maxDrain is the most of an unread body read and dropped to keep the
// connection: an upload refused early (or a duplicate the Immich layer
// answers before storing it) costs a read while the client goes on
// sending, so it sees the answer instead of a reset; a larger one costs a
// new connection.
const maxDrain = 64 << 20

// drainTime bounds the wait for the rest of an unread body.
const drainTime = 5 * time.Second

// keepAliveSafe runs the request, then finishes its body (finishBody). It
// is the outermost middleware of every app, so it sees the answer the
// error handler made.
func keepAliveSafe(readTimeout time.Duration) fiber.Handler {
	return func(c *fiber.Ctx) error {
		err := c.Next()
		finishBody(c, readTimeout)
		return err
	}
}

// localBody holds the request's bodyReader once a handler streams it.
const localBody = "photoctl.body"

// bodyReader is the request body as handlers stream it. It remembers the
// end: fasthttp's stream of a chunked body, read again after its end,
// waits for the next chunk size, which never comes.
type bodyReader struct {
	r   io.Reader
	end bool
}

func (b *bodyReader) Read(p []byte) (int, error) {
	if b.end {
		return 0, io.EOF
	}
	n, err := b.r.Read(p)
	b.end = errors.Is(err, io.EOF)
	return n, err
}

// streamBody returns the request body to stream, nil when fasthttp read
// it whole (or there is none). Handlers stream through it, never through
// fasthttp's stream directly, so finishBody knows where they stopped.
func streamBody(c *fiber.Ctx) *bodyReader {
	if b, ok := c.Locals(localBody).(*bodyReader); ok {
		return b
	}
	raw := c.Context().RequestBodyStream()
	if raw == nil {
		return nil
	}
	b := &bodyReader{r: raw}
	c.Locals(localBody, b)
	return b
}

// finishBody reads and drops up to maxDrain bytes of what the handler left
// of the request body, within drainTime; when more is left, or the client
// does not send it, the answer carries Connection: close and fasthttp
// closes the connection after writing it.
func finishBody(c *fiber.Ctx, readTimeout time.Duration) {
	if c.Context().Request.Header.ContentLength() == 0 || c.Context().Response.ConnectionClose() {
		return // no body, or closing anyway
	}
	body := streamBody(c)
	if body == nil || body.end {
		return // read whole
	}
	conn := c.Context().Conn()
	_ = conn.SetReadDeadline(time.Now().Add(drainTime))
	n, err := io.CopyN(io.Discard, body, maxDrain+1)
	// fasthttp sets the read deadline only every quarter of the timeout:
	// put back the one it would have set for the next request.
	_ = conn.SetReadDeadline(time.Now().Add(readTimeout))
	if n > maxDrain || !errors.Is(err, io.EOF) {
		c.Set(fiber.HeaderConnection, "close")
	}
}
