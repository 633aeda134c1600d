package httpapi

import (
	"sync"

	"github.com/gofiber/fiber/v2"
	segjson "github.com/segmentio/encoding/json"
)

// jsonBuffers keeps encoding buffers between responses: a page of 100
// assets is ~240 KB of JSON, which c.JSON (Marshal) allocates afresh for
// every response, making the list's garbage a quarter larger.
var jsonBuffers = sync.Pool{New: func() any { return new([]byte) }}

// maxPooledJSON is the largest buffer kept for reuse, so one huge response
// does not pin its memory.
const maxPooledJSON = 1 << 20

// sendSecret writes v, an answer carrying a credential (tokens, a new API
// key's or OAuth client's secret, an invitation's token), as SendJSON
// does, marked not to be stored by any cache (RFC 6749 §5.1 asks it of
// token answers) and, for that mark, never compressed (compressJSON), so
// its size cannot leak the secret beside text an attacker chose (BREACH).
func sendSecret(c *fiber.Ctx, v any) error {
	c.Set(fiber.HeaderCacheControl, "no-store")
	c.Set(fiber.HeaderPragma, "no-cache")
	return SendJSON(c, v)
}

// SendJSON writes v as the JSON body, as c.JSON does (same encoder and
// flags, same content type), encoded into a pooled buffer that fasthttp's
// own pooled body buffer then copies.
func SendJSON(c *fiber.Ctx, v any) error {
	buf := jsonBuffers.Get().(*[]byte)
	b, err := segjson.Append((*buf)[:0], v, segjson.EscapeHTML|segjson.SortMapKeys)
	if err == nil {
		c.Response().SetBody(b)
		c.Response().Header.SetContentType(fiber.MIMEApplicationJSON)
	}
	if cap(b) <= maxPooledJSON {
		*buf = b[:0]
		jsonBuffers.Put(buf)
	}
	return err
}

// sendMadeFile writes data, a file the server made rather than stored (a
// face thumbnail), as the body with its content type and, as sendBlob
// sends every stored file, X-Content-Type-Options: nosniff.
func sendMadeFile(c *fiber.Ctx, data []byte, contentType string) error {
	c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	c.Set(fiber.HeaderContentType, contentType)
	return c.Send(data)
}

// sendNamedCreate answers a named create (spec "Named creates"): 201
// with the record it made, or 200 with the one that already had the name.
func sendNamedCreate(c *fiber.Ctx, created bool, v any) error {
	if created {
		return SendJSON(c.Status(fiber.StatusCreated), v)
	}
	return SendJSON(c.Status(fiber.StatusOK), v)
}
