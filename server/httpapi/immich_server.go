package httpapi

import (
	"bytes"
	"encoding/json"

	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/immich"
)

// maxImmichJSON bounds Immich JSON bodies: the CLI checks 5000 files (with
// their paths) and adds up to 65000 assets to an album in one request.
const maxImmichJSON = 16 << 20

// decodeImmichJSON reads a JSON body as Immich does: unknown fields are
// ignored (Immich strips them), malformed JSON or a wrong type is a 400.
func decodeImmichJSON(c *fiber.Ctx, v any) error {
	body := c.Body()
	if len(body) > maxImmichJSON {
		return fiber.NewError(fiber.StatusRequestEntityTooLarge, "JSON body too large")
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return catalog.InvalidField("missing", "a JSON body is required", nil, "body")
	}
	if err := json.Unmarshal(body, v); err != nil {
		return jsonError(err, body)
	}
	return nil
}

func immichWellKnown(endpoint string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		return sendJSON(c, immich.WellKnown{API: immich.WellKnownAPI{Endpoint: endpoint}})
	}
}

func immichPing(c *fiber.Ctx) error { return sendJSON(c, immich.Pong{Res: "pong"}) }

func immichVersion(c *fiber.Ctx) error { return sendJSON(c, immich.ServerVersion) }

func immichMediaTypes(c *fiber.Ctx) error { return sendJSON(c, immich.SupportedMediaTypes()) }

func immichAbout(c *fiber.Ctx) error { return sendJSON(c, immich.AboutServer()) }

func (s *Server) immichMe(c *fiber.Ctx) error { return sendJSON(c, immich.ToUser(principal(c).User)) }

func (s *Server) immichMyKey(c *fiber.Ctx) error {
	k, err := s.immich.CurrentKey(c.UserContext(), principal(c))
	if err != nil {
		return err
	}
	return sendJSON(c, immich.APIKeyBody{ID: k.ID, Name: k.Name, CreatedAt: immich.Time(k.CreatedAt),
		UpdatedAt: immich.Time(k.UpdatedAt), Permissions: k.Permissions})
}

// immichJob accepts Immich's job commands and does nothing: photoctl runs
// its own pipeline. immich-go pauses and resumes jobs around an upload and
// aborts when this fails.
func immichJob(c *fiber.Ctx) error {
	var req immich.JobCommand
	if err := decodeImmichJSON(c, &req); err != nil {
		return err
	}
	switch req.Command {
	case "start", "pause", "resume", "empty", "clear-failed":
	default:
		return catalog.InvalidField("enum", "command must be start, pause, resume, empty or clear-failed",
			req.Command, "body", "command")
	}
	return sendJSON(c, immich.JobStatus{QueueStatus: immich.QueueStatus{IsPaused: req.Command == "pause"}})
}
