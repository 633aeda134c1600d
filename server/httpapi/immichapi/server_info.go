package immichapi

import (
	"bytes"
	"encoding/json"

	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/httpapi"
	"github.com/photoctl/photoctl/server/immich"
)

// maxJSON bounds Immich JSON bodies: the CLI checks 5000 files (with
// their paths) and adds up to 65000 assets to an album in one request.
const maxJSON = 16 << 20

// decodeJSON reads a JSON body as Immich does: unknown fields are
// ignored (Immich strips them), malformed JSON or a wrong type is a 400.
func decodeJSON(c *fiber.Ctx, v any) error {
	body := c.Body()
	if len(body) > maxJSON {
		return fiber.NewError(fiber.StatusRequestEntityTooLarge, "JSON body too large")
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return catalog.InvalidField("missing", "a JSON body is required", nil, "body")
	}
	if err := json.Unmarshal(body, v); err != nil {
		return httpapi.JSONError(err, body)
	}
	return nil
}

func wellKnown(endpoint string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		return httpapi.SendJSON(c, immich.WellKnown{API: immich.WellKnownAPI{Endpoint: endpoint}})
	}
}

func ping(c *fiber.Ctx) error { return httpapi.SendJSON(c, immich.Pong{Res: "pong"}) }

func version(c *fiber.Ctx) error { return httpapi.SendJSON(c, immich.ServerVersion) }

func mediaTypes(c *fiber.Ctx) error { return httpapi.SendJSON(c, immich.SupportedMediaTypes()) }

func about(c *fiber.Ctx) error { return httpapi.SendJSON(c, immich.AboutServer()) }

func (l *layer) me(c *fiber.Ctx) error {
	return httpapi.SendJSON(c, immich.ToUser(httpapi.Principal(c).User))
}

func (l *layer) myKey(c *fiber.Ctx) error {
	k, err := l.immich.CurrentKey(c.UserContext(), httpapi.Principal(c))
	if err != nil {
		return err
	}
	return httpapi.SendJSON(c, immich.APIKeyBody{ID: k.ID, Name: k.Name, CreatedAt: immich.Time(k.CreatedAt),
		UpdatedAt: immich.Time(k.UpdatedAt), Permissions: k.Permissions})
}

// job accepts Immich's job commands and does nothing: photoctl runs
// its own pipeline. immich-go pauses and resumes jobs around an upload and
// aborts when this fails.
func job(c *fiber.Ctx) error {
	var req immich.JobCommand
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	switch req.Command {
	case "start", "pause", "resume", "empty", "clear-failed":
	default:
		return catalog.InvalidField("enum", "command must be start, pause, resume, empty or clear-failed",
			req.Command, "body", "command")
	}
	return httpapi.SendJSON(c, immich.JobStatus{QueueStatus: immich.QueueStatus{IsPaused: req.Command == "pause"}})
}
