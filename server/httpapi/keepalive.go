package httpapi

import (
	"errors"
	"io"
	"net"
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

// KeepAliveSafe runs the request, then finishes its body (finishBody). It
// is the outermost middleware of every app, so it sees the answer the
// error handler made.
func KeepAliveSafe(readTimeout time.Duration) fiber.Handler {
	return func(c *fiber.Ctx) error {
		err := c.Next()
		finishBody(c, readTimeout)
		return err
	}
}

// localBody holds the request's bodyReader once a handler streams it.
const localBody = "photoctl.body"

// bodyReader is the request body as handlers stream it, mending two
// things of fasthttp's stream (v1.51). It ends with a plain io.EOF when
// the connection does, so a body cut short of its Content-Length, or a
// chunked body cut after a whole chunk, read as a complete shorter body
// (a client that hung up 10 bytes before the end left an asset): here
// such an end is io.ErrUnexpectedEOF. And a chunked stream read again
// after its end waits for a chunk size that never comes: here the end,
// once reached, is answered again without reading. It counts from the
// body's first byte: nothing may read fasthttp's stream before it.
type bodyReader struct {
	r    io.Reader
	want int64 // the declared length; -1 for a chunked body
	read int64
	conn net.Conn
	done error // io.EOF at the true end, io.ErrUnexpectedEOF when cut
}

func (b *bodyReader) Read(p []byte) (int, error) {
	if b.done != nil {
		return 0, b.done
	}
	n, err := b.r.Read(p)
	b.read += int64(n)
	if errors.Is(err, io.EOF) {
		if b.cut() {
			err = io.ErrUnexpectedEOF
		}
		b.done = err
	}
	return n, err
}

// cut reports whether the body, now at its end, ended early. The stream
// tells a chunked body's last chunk and a connection ending between
// chunks apart by nothing; only in the second case has the client shut
// its side, so its half-close is taken for the cut (peerHungUp).
func (b *bodyReader) cut() bool {
	if b.want >= 0 {
		return b.read < b.want
	}
	return peerHungUp(b.conn)
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
	b := &bodyReader{r: raw, want: int64(c.Request().Header.ContentLength()), conn: c.Context().Conn()}
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
	if body == nil || body.done == io.EOF {
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
