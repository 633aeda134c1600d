package httpapi

import (
	"crypto/rand"
	"encoding/hex"
	"time"

	"github.com/gofiber/fiber/v2"
)

const (
	headerRequestID = "X-Request-Id"
	localRequestID  = "photoctl.request_id"
)

// RequestID returns the id of the current request.
func RequestID(c *fiber.Ctx) string {
	id, _ := c.Locals(localRequestID).(string)
	return id
}

// WithRequestID gives every request an id (the client's X-Request-Id when it
// is sane, else a fresh one), echoes it on the response and logs the request.
func (s *Server) WithRequestID(c *fiber.Ctx) error {
	id := c.Get(headerRequestID)
	if !saneRequestID(id) {
		b := make([]byte, 12)
		_, _ = rand.Read(b)
		id = hex.EncodeToString(b)
	} else {
		id = string([]byte(id)) // fiber reuses header buffers after the handler
	}
	c.Locals(localRequestID, id)
	c.Set(headerRequestID, id)
	start := time.Now()
	err := c.Next()
	if err != nil {
		if herr := s.handleError(c, err); herr != nil {
			return herr
		}
	}
	attrs := []any{"request_id", id, "method", c.Method(), "path", c.Path(),
		"status", c.Response().StatusCode(), "duration", time.Since(start)}
	if p := Principal(c); p != nil {
		attrs = append(attrs, "user_id", p.User.ID) // who asked, for admins reading the log
	}
	s.log.InfoContext(c.UserContext(), "request", attrs...)
	return nil
}

func saneRequestID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, r := range id {
		if !(r == '-' || r == '_' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}
