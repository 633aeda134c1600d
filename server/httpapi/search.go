package httpapi

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"slices"

	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/httpapi/convert"
	"github.com/photoctl/photoctl/server/httpapi/openapi"
	"github.com/photoctl/photoctl/server/search"
)

// searchParams are the parameters of GET /api/search, and the form fields
// of POST /api/search beside its image.
var searchParams = []string{"query", "library_id", "album_id", "person_ids", "local_datetime_after",
	"local_datetime_before", "center", "radius", "bbox", "media_type", "state", "include", "variants"}

// legacySearchParams are parameters of earlier versions of the search
// (spec "Versioning" 3), each with its replacement ("" for none: scores
// rank, nothing cuts them off). They are refused even beside a valid
// criterion, so an old client learns why its filter is not applied.
var legacySearchParams = map[string]string{
	"captured_after": "local_datetime_after", "captured_before": "local_datetime_before",
	"album_ids": "album_id", "person_id": "person_ids",
	"threshold": "", "min_score": "", "score_threshold": "", "min_similarity": "", "similarity": "",
	"max_distance": "",
}

func (s *Server) searchRoutes() []route {
	return []route{
		{"GET", "/api/search", access{action: catalog.ActionSearch, cost: CostSearch}, s.searchAssets,
			openapi.Doc{Summary: "Search a library's assets by text and filters, best match first", Tag: "search",
				Paged: true, Query: searchParams, Status: 200, Resp: api.Page[api.SearchHit]{}}},
		{"POST", "/api/search", access{action: catalog.ActionSearch, cost: CostSearch}, s.searchByImage,
			openapi.Doc{Summary: "Search by an image (same people, similar looks) with the GET filters as form fields",
				Tag: "search", Form: searchForm{}, Status: 200, Resp: api.Page[api.SearchHit]{}, Errs: []int{413}}},
	}
}

func (s *Server) searchAssets(c *fiber.Ctx) error {
	var names []string
	c.Context().QueryArgs().VisitAll(func(k, _ []byte) { names = append(names, string(k)) })
	if err := legacySearch(names, "query"); err != nil {
		return err
	}
	if err := allowQuery(c, slices.Concat(searchParams, pageParams)...); err != nil {
		return err
	}
	return s.runSearch(c, nil, "query")
}

// searchByImage reads the multipart body: the image part (bounded, held in
// memory: it is decoded whole anyway) and the form fields, which are then
// read by the same parsers as GET's query parameters.
func (s *Server) searchByImage(c *fiber.Ctx) error {
	if err := allowQuery(c); err != nil {
		return err // the parameters go in the body
	}
	if mt, _, err := mime.ParseMediaType(c.Get(fiber.HeaderContentType)); err != nil || mt != fiber.MIMEMultipartForm {
		return catalog.InvalidField("value_error", "send the search as multipart/form-data (an image part and form fields)",
			c.Get(fiber.HeaderContentType), "header", "content-type")
	}
	mr, release, err := multipartReader(c)
	if err != nil {
		return err
	}
	defer release()
	var image []byte
	var names []string
	args := c.Context().QueryArgs()
	for {
		part, err := nextPart(mr)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		name := part.FormName()
		names = append(names, name)
		switch {
		case name == "image":
			if image != nil {
				return catalog.InvalidField("value_error", "send at most one image part", nil, "body", "image")
			}
			max := s.search.MaxImageBytes()
			if image, err = io.ReadAll(io.LimitReader(part, max+1)); err != nil {
				return catalog.InvalidField("value_error", "malformed multipart body: "+err.Error(), nil, "body", name)
			}
			if int64(len(image)) > max {
				return fmt.Errorf("search image larger than %d bytes: %w", max, catalog.ErrTooLarge)
			}
		case slices.Contains(searchParams, name) || slices.Contains(pageParams, name):
			v, err := readFormField(part, name)
			if err != nil {
				return err
			}
			args.Add(name, v)
		case hasLegacy(name):
			// reported below, with the others
		default:
			return catalog.InvalidField("extra_forbidden", "unknown form field", nil, "body", name)
		}
	}
	if err := legacySearch(names, "body"); err != nil {
		return err
	}
	return inBody(s.runSearch(c, image, "body"))
}

// runSearch parses the (query or form) parameters, searches and answers.
func (s *Server) runSearch(c *fiber.Ctx, image []byte, loc string) error {
	pg, f, variants, err := parseListQuery(c)
	if err != nil {
		return err
	}
	hits, more, err := s.search.Search(c.UserContext(), Principal(c), search.Input{LibraryID: c.Query("library_id"),
		Query: c.Query("query"), Filter: f, Image: image, Loc: loc}, pg)
	if err != nil {
		return err
	}
	list := convert.HitAssets(hits, variants)
	if err := s.withFaces(c, list); err != nil {
		return err
	}
	return SendJSON(c, convert.SearchPage(hits, list, more))
}

func hasLegacy(name string) bool {
	_, ok := legacySearchParams[name]
	return ok
}

// legacySearch refuses the legacy parameters among names, each with its
// replacement.
func legacySearch(names []string, loc string) error {
	var fields []catalog.FieldError
	slices.Sort(names)
	for _, name := range slices.Compact(names) {
		repl, ok := legacySearchParams[name]
		if !ok {
			continue
		}
		fe := catalog.FieldError{Loc: []any{loc, name}, Type: "extra_forbidden",
			Msg: name + " is no longer supported: search thresholds were removed; hits are ranked by score"}
		if repl != "" {
			fe.Msg, fe.Ctx = name+" is no longer supported; use "+repl, map[string]any{"replacement": repl}
		}
		fields = append(fields, fe)
	}
	if len(fields) > 0 {
		return &catalog.ValidationError{Fields: fields}
	}
	return nil
}

// inBody relocates the validation errors of form fields, which the query
// parsers located in the query, to the body.
func inBody(err error) error {
	var ve *catalog.ValidationError
	if errors.As(err, &ve) {
		for i := range ve.Fields {
			if loc := ve.Fields[i].Loc; len(loc) > 0 && loc[0] == "query" {
				loc[0] = "body"
			}
		}
	}
	return err
}
