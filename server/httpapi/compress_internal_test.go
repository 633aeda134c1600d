package httpapi

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gofiber/fiber/v2"
	"github.com/stretchr/testify/require"
)

// TestCompressJSONLeavesCredentialsAsTheyAre: an answer sendSecret marks
// no-store goes uncompressed however large, where the same JSON sent
// plainly is compressed.
func TestCompressJSONLeavesCredentialsAsTheyAre(t *testing.T) {
	app := fiber.New()
	app.Use(compressJSON())
	big := json.RawMessage(`{"secret":"` + strings.Repeat("x", 4096) + `"}`)
	app.Get("/secret", func(c *fiber.Ctx) error { return sendSecret(c, big) })
	app.Get("/plain", func(c *fiber.Ctx) error { return SendJSON(c, big) })
	for path, want := range map[string]string{"/secret": "", "/plain": "gzip"} {
		req := httptest.NewRequest("GET", path, nil)
		req.Header.Set("Accept-Encoding", "gzip")
		resp, err := app.Test(req)
		require.NoError(t, err)
		require.Equal(t, 200, resp.StatusCode)
		require.Equal(t, want, resp.Header.Get("Content-Encoding"), path)
	}
}
