package client

import (
	"context"
	"iter"
	"net/url"
	"strconv"
	"strings"

	"github.com/photoctl/photoctl/server/api"
)

// SearchQuery holds the criteria and filters of GET and POST /api/search.
// A search needs a criterion: Query, AlbumID, PersonIDs, After or Before
// (or, for SearchImage, the image); the rest only narrows. Zero values are
// left out.
type SearchQuery struct {
	// Query is the text to look for in descriptions, text in pictures,
	// places, people and album names, file names and cameras.
	Query     string
	LibraryID string
	AlbumID   string
	// PersonIDs keeps assets showing all of these people.
	PersonIDs []string
	// After (inclusive) and Before (exclusive) bound the capture time:
	// both offsetless (wall clock) or both with an offset.
	After, Before string
	// Center is "longitude,latitude" and Radius metres; or BBox
	// "min_lon,min_lat,max_lon,max_lat".
	Center    string
	Radius    float64
	BBox      string
	MediaType string // image or video
	State     string // live (default), trashed or all
	// Variants limits asset_urls to these renderings (include=variants).
	Variants []string
	// PageSize is how many hits each request asks for (MaxPageSize when 0).
	PageSize int
}

// fields lists q's parameters in a stable order (as query parameters or
// form fields).
func (q SearchQuery) fields() []field {
	var out []field
	add := func(name, value string) {
		if value != "" {
			out = append(out, field{name, value})
		}
	}
	add("query", q.Query)
	add("library_id", q.LibraryID)
	add("album_id", q.AlbumID)
	if len(q.PersonIDs) > 0 {
		add("person_ids", strings.Join(q.PersonIDs, ","))
	}
	add("local_datetime_after", q.After)
	add("local_datetime_before", q.Before)
	add("center", q.Center)
	if q.Radius != 0 {
		add("radius", strconv.FormatFloat(q.Radius, 'f', -1, 64))
	}
	add("bbox", q.BBox)
	add("media_type", q.MediaType)
	add("state", q.State)
	if q.Variants != nil {
		add("include", "variants")
		add("variants", strings.Join(q.Variants, ","))
	}
	return out
}

// Search iterates over the hits of q, best first (GET /api/search),
// fetching pages as the loop goes. An error ends the iteration after being
// yielded.
func (c *Client) Search(ctx context.Context, q SearchQuery) iter.Seq2[api.SearchHit, error] {
	v := url.Values{}
	for _, f := range q.fields() {
		v.Set(f.name, f.value)
	}
	return walk(ctx, c, "/api/search", v, "", q.PageSize, func(h api.SearchHit) string { return h.ID })
}

// SearchImage iterates over the assets like image — the same people,
// similar looks — that also match q (POST /api/search). The image is
// streamed from its FilePart for each page's request, never held whole in
// memory here.
func (c *Client) SearchImage(ctx context.Context, q SearchQuery, image FilePart) iter.Seq2[api.SearchHit, error] {
	size := q.PageSize
	if size <= 0 {
		size = MaxPageSize
	}
	return func(yield func(api.SearchHit, error) bool) {
		after := ""
		for {
			fields := append(q.fields(), field{"limit", strconv.Itoa(min(size, MaxPageSize))})
			if after != "" {
				fields = append(fields, field{"starting_after_id", after})
			}
			var page api.Page[api.SearchHit]
			_, err := c.do(ctx, &call{method: "POST", path: "/api/search", out: &page, idempotent: true,
				stream: streamOnce(fields, nil, "image", image, nil)})
			if err != nil {
				yield(api.SearchHit{}, err)
				return
			}
			for _, h := range page.Data {
				if !yield(h, nil) {
					return
				}
			}
			if !page.HasMore || len(page.Data) == 0 {
				return
			}
			after = page.Data[len(page.Data)-1].ID
		}
	}
}
