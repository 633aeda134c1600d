package httpapi

import (
	"fmt"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/assets"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/httpapi/convert"
	"github.com/photoctl/photoctl/server/query"
)

// assetCountsParams are the parameters of GET /api/assets/counts: the list
// filters that apply to counts (with the list's stacks view, so the counts
// add up to the rows the list shows), the bucket, the order, and paging by
// bucket.
var assetCountsParams = []string{"library_id", "album_id", "person_ids", "state", "media_type", "min_rating", "local_datetime_after",
	"local_datetime_before", "bbox", "center", "radius", "stacks", "order", "bucket", "limit", "starting_after_bucket"}

// defaultCountsLimit is the page size of counts (decisions.md, "Counts").
const defaultCountsLimit = 100

func (s *Server) assetCounts(c *fiber.Ctx) error {
	if err := allowQuery(c, assetCountsParams...); err != nil {
		return err
	}
	f, err := parseAssetFilter(c)
	if err != nil {
		return err
	}
	bucket := query.CountBucket(c.Query("bucket", string(query.BucketMonth)))
	layout, ok := convert.BucketLayout(bucket)
	if !ok {
		return catalog.InvalidField("enum", "bucket must be day, month or year", string(bucket), "query", "bucket")
	}
	pg, err := parsePage(c)
	if err != nil {
		return err
	}
	if c.Query("limit") == "" {
		pg.Limit = defaultCountsLimit
	}
	q := query.CountsQuery{Filter: f, Bucket: bucket, Limit: pg.Limit}
	if raw := c.Query("starting_after_bucket"); raw != "" {
		after, err := time.Parse(layout, raw)
		if err != nil {
			return catalog.InvalidField("value_error", fmt.Sprintf(
				"starting_after_bucket must be a %s label such as %s, the bucket of the last item of the previous page",
				bucket, layout), raw, "query", "starting_after_bucket")
		}
		q.After = &after
	}
	counts, more, err := s.assets.Counts(c.UserContext(), Principal(c), assets.CountsInput{LibraryID: c.Query("library_id"), Query: q})
	if err != nil {
		return err
	}
	return SendJSON(c, convert.Counts(counts, more, layout))
}
