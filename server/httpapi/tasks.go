package httpapi

import (
	"regexp"
	"slices"

	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/httpapi/convert"
	"github.com/photoctl/photoctl/server/httpapi/openapi"
	"github.com/photoctl/photoctl/server/tasks"
)

// taskFilterParams are the filters of GET /api/tasks.
var taskFilterParams = []string{"library_id", "state", "kind", "asset_id"}

// taskKindPattern is the shape of a task kind name ("metadata", "ml.faces").
var taskKindPattern = regexp.MustCompile(`^[a-z][a-z0-9_.-]{0,63}$`)

// taskRoutes are the background task status routes.
func (s *Server) taskRoutes() []route {
	return []route{
		{"GET", "/api/tasks", access{action: catalog.ActionTaskRead}, s.listTasks,
			openapi.Doc{Summary: "Background tasks of every library the caller can read, newest first; library_id, state (queued, running, succeeded, failed), kind and asset_id filter",
				Tag: "tasks", Paged: true, Query: taskFilterParams, Status: 200, Resp: api.Page[api.Task]{}}},
		{"GET", "/api/tasks/:id", access{action: catalog.ActionTaskRead}, one(s.tasks.Get, convert.Task),
			openapi.Doc{Summary: "One background task", Tag: "tasks", Status: 200, Resp: api.Task{}}},
	}
}

func (s *Server) listTasks(c *fiber.Ctx) error {
	if err := allowQuery(c, slices.Concat(taskFilterParams, pageParams)...); err != nil {
		return err
	}
	in, err := parseTaskFilter(c)
	if err != nil {
		return err
	}
	pg, err := parsePage(c)
	if err != nil {
		return err
	}
	list, more, err := s.tasks.List(c.UserContext(), Principal(c), in, pg)
	if err != nil {
		return err
	}
	return SendJSON(c, convert.Page(list, more, convert.Task))
}

// parseTaskFilter reads the filters, reporting every bad one at once.
func parseTaskFilter(c *fiber.Ctx) (tasks.ListInput, error) {
	in := tasks.ListInput{LibraryID: c.Query("library_id"), State: catalog.TaskState(c.Query("state")),
		Kind: c.Query("kind"), AssetID: c.Query("asset_id")}
	var bad []catalog.FieldError
	if in.State != "" && !in.State.Valid() {
		bad = append(bad, catalog.FieldError{Loc: []any{"query", "state"}, Type: "enum", Input: string(in.State),
			Msg: "state must be queued, running, succeeded or failed"})
	}
	if in.Kind != "" && !taskKindPattern.MatchString(in.Kind) {
		bad = append(bad, catalog.FieldError{Loc: []any{"query", "kind"}, Type: "string_pattern_mismatch",
			Input: in.Kind, Msg: "kind must be a task kind name such as metadata or variants"})
	}
	if in.AssetID != "" && !catalog.HasPrefix(in.AssetID, catalog.PrefixAsset) {
		bad = append(bad, catalog.FieldError{Loc: []any{"query", "asset_id"}, Type: "value_error",
			Input: in.AssetID, Msg: "asset_id must be an asset id (asset_…)"})
	}
	if len(bad) > 0 {
		return in, &catalog.ValidationError{Fields: bad}
	}
	return in, nil
}
