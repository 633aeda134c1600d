package immichapi

import (
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/httpapi"
	"github.com/photoctl/photoctl/server/immich"
)

func (l *layer) statistics(c *fiber.Ctx) error {
	var q immich.StatisticsQuery
	for _, name := range []string{"isTrashed", "isFavorite"} {
		raw := c.Query(name)
		if raw == "" {
			continue
		}
		v, err := strconv.ParseBool(raw)
		if err != nil {
			return catalog.InvalidField("bool_parsing", name+" must be true or false", raw, "query", name)
		}
		if name == "isTrashed" {
			q.Trashed = v
		} else {
			q.None = q.None || v // nothing is a favourite
		}
	}
	if v := c.Query("visibility"); v != "" && v != immich.Visibility {
		q.None = true
	}
	st, err := l.immich.Statistics(c.UserContext(), httpapi.Principal(c), q)
	if err != nil {
		return err
	}
	return httpapi.SendJSON(c, st)
}

func (l *layer) check(c *fiber.Ctx) error {
	var req immich.CheckRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	res, err := l.immich.Check(c.UserContext(), httpapi.Principal(c), req.Assets)
	if err != nil {
		return err
	}
	return httpapi.SendJSON(c, immich.CheckResponse{Results: res})
}

func (l *layer) search(c *fiber.Ctx) error {
	var req immich.SearchRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	q, withExif, err := searchQuery(req)
	if err != nil {
		return err
	}
	p := httpapi.Principal(c)
	page, err := l.immich.Search(c.UserContext(), p, q)
	if err != nil {
		return err
	}
	items := make([]immich.Asset, len(page.Assets))
	for i := range page.Assets {
		items[i] = immich.ToAsset(&page.Assets[i], p.User.ID)
		if !withExif {
			items[i].ExifInfo = nil
		}
	}
	out := immich.SearchResponse{
		Assets: immich.SearchAssets{Total: len(items), Count: len(items), Items: items, Facets: []any{}},
		Albums: immich.SearchAlbums{Items: []any{}, Facets: []any{}},
	}
	if page.NextPage != "" {
		out.Assets.NextPage = &page.NextPage
	}
	return httpapi.SendJSON(c, out)
}

// searchQuery turns a metadata search body into the layer's query, and
// says whether items carry exifInfo (withExif; off by default, as Immich).
func searchQuery(req immich.SearchRequest) (immich.SearchQuery, bool, error) {
	q := immich.SearchQuery{Page: immich.FirstPage, Size: immich.DefaultSearchSize}
	if req.Page != nil {
		q.Page = int64(*req.Page)
	}
	if req.Size != nil {
		q.Size = *req.Size
	}
	if req.Visibility != nil {
		if err := checkVisibility(*req.Visibility); err != nil {
			return q, false, err
		}
		q.Visibility = *req.Visibility
	}
	if req.Order != nil {
		switch strings.ToLower(*req.Order) {
		case "asc":
			q.Asc = true
		case "desc":
		default:
			return q, false, catalog.InvalidField("enum", "order must be asc or desc", *req.Order, "body", "order")
		}
	}
	if req.Type != nil {
		switch *req.Type {
		case "IMAGE":
			q.MediaType = catalog.MediaImage
		case "VIDEO":
			q.MediaType = catalog.MediaVideo
		default:
			q.None = true // AUDIO, OTHER
		}
	}
	q.None = q.None || req.IsFavorite != nil && *req.IsFavorite
	q.WithDeleted = req.WithDeleted != nil && *req.WithDeleted
	q.Trashed = req.IsTrashed != nil && *req.IsTrashed
	for _, b := range []struct {
		raw  *string
		to   **time.Time
		name string
	}{{req.TrashedAfter, &q.TrashedAfter, "trashedAfter"}, {req.TrashedBefore, &q.TrashedBefore, "trashedBefore"}} {
		if b.raw == nil {
			continue
		}
		t, err := time.Parse(time.RFC3339Nano, *b.raw)
		if err != nil {
			return q, false, catalog.InvalidField("datetime_parsing", "must be an ISO 8601 date-time", *b.raw, "body", b.name)
		}
		*b.to = &t
	}
	return q, req.WithExif != nil && *req.WithExif, nil
}
