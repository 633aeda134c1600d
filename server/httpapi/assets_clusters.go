package httpapi

import (
	"math"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/assets"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/httpapi/convert"
)

// geoClusterParams are the parameters of GET /api/assets/geo-clusters; the
// stacks view counts what the list shows, as on counts.
var geoClusterParams = []string{"bbox", "cell_size", "library_id", "album_id", "person_ids", "local_datetime_after", "local_datetime_before",
	"state", "media_type", "min_rating", "stacks"}

// maxCellSize is the largest cell_size: half the longitude range.
const maxCellSize = 180

func (s *Server) geoClusters(c *fiber.Ctx) error {
	if err := allowQuery(c, geoClusterParams...); err != nil {
		return err
	}
	var missing []catalog.FieldError
	for _, name := range []string{"bbox", "cell_size"} {
		if c.Query(name) == "" {
			missing = append(missing, catalog.FieldError{Loc: []any{"query", name}, Msg: name + " is required",
				Type: "missing"})
		}
	}
	if len(missing) > 0 {
		return &catalog.ValidationError{Fields: missing}
	}
	f, err := parseAssetFilter(c)
	if err != nil {
		return err
	}
	cell, err := parseCellSize(c.Query("cell_size"))
	if err != nil {
		return err
	}
	cells, err := s.assets.GeoClusters(c.UserContext(), Principal(c),
		assets.ClustersInput{LibraryID: c.Query("library_id"), Filter: f, CellSize: cell})
	if err != nil {
		return err
	}
	return SendJSON(c, api.GeoClusters{Data: convert.GeoClusters(cells)})
}

// parseCellSize reads cell_size: a plain decimal number of degrees,
// greater than 0 and at most 180.
func parseCellSize(raw string) (float64, error) {
	t := strings.TrimSpace(raw)
	v, err := strconv.ParseFloat(t, 64)
	switch {
	case strings.Trim(t, "0123456789+-.eE") != "" || err != nil && !math.IsInf(v, 0):
		return 0, catalog.InvalidField("float_parsing", "cell_size must be a number of degrees", raw, "query", "cell_size")
	case math.IsInf(v, 0) || math.IsNaN(v):
		return 0, catalog.InvalidField("finite_number", "cell_size must be a finite number", raw, "query", "cell_size")
	case v <= 0:
		return 0, withLimit(catalog.InvalidField("greater_than", "cell_size must be greater than 0 degrees", raw,
			"query", "cell_size"), "gt", 0)
	case v > maxCellSize:
		return 0, withLimit(catalog.InvalidField("less_than_equal", "cell_size must be at most 180 degrees", raw,
			"query", "cell_size"), "le", maxCellSize)
	}
	return v, nil
}

// withLimit adds the violated bound as the error's ctx.
func withLimit(err error, name string, v float64) error {
	if ve, ok := err.(*catalog.ValidationError); ok && len(ve.Fields) == 1 {
		ve.Fields[0].Ctx = map[string]any{name: v}
	}
	return err
}
