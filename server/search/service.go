package search

import (
	"context"
	"strings"

	"github.com/photoctl/photoctl/ml"
	"github.com/photoctl/photoctl/server/albums"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/libraries"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// Config holds the limits and thresholds of image search.
type Config struct {
	// MaxImageBytes bounds a search image (413 beyond); MaxImagePixels its
	// decoded size (422 beyond). Zero takes DefaultMaxImageBytes and
	// DefaultMaxImagePixels.
	MaxImageBytes  int64
	MaxImagePixels int64
	// SamePerson is the cosine similarity of a face embedding to a
	// person's above which an image's face is taken for that person
	// (ml/faces.SamePerson); zero takes DefaultSamePerson.
	SamePerson float64
}

// Defaults of Config.
const (
	DefaultMaxImageBytes  = 32 << 20
	DefaultMaxImagePixels = 100_000_000
	DefaultSamePerson     = 0.45
)

// Service finds assets by content.
type Service struct {
	store store.Store
	libs  *libraries.Service
	faces ml.FaceAnalyzer
	cfg   Config
}

// NewService returns a search service. faces may be nil (ML off or not
// installed): image search then goes by looks alone.
func NewService(st store.Store, libs *libraries.Service, faces ml.FaceAnalyzer, cfg Config) *Service {
	if cfg.MaxImageBytes <= 0 {
		cfg.MaxImageBytes = DefaultMaxImageBytes
	}
	if cfg.MaxImagePixels <= 0 {
		cfg.MaxImagePixels = DefaultMaxImagePixels
	}
	if cfg.SamePerson <= 0 {
		cfg.SamePerson = DefaultSamePerson
	}
	return &Service{store: st, libs: libs, faces: faces, cfg: cfg}
}

// MaxImageBytes is the largest search image the service takes.
func (s *Service) MaxImageBytes() int64 { return s.cfg.MaxImageBytes }

// Input is a search request. Loc is where its parameters came from
// ("query" for GET, "body" for the multipart POST), for error locations.
type Input struct {
	LibraryID string
	// Query is the text to look for; "" for none.
	Query string
	// Filter holds the asset list's filters: album, people, capture time,
	// location, media type and state (its LibraryID is set here).
	Filter query.AssetFilter
	// Image is an encoded picture (JPEG, PNG, GIF, WebP); nil for none.
	Image []byte
	Loc   string
}

// Hit is one search result.
type Hit struct {
	Asset catalog.Asset
	// Score ranks the hits, higher first: the sum of the text and image
	// criteria's scores (docs/api.md, "Search"); 0 when the search has
	// only filters.
	Score float64
}

// Search pages the assets of the selected library that match in. It needs
// a criterion (a query, an album, people, a capture-time bound or an
// image); location, media type and state only narrow. With a query or an
// image, hits come by score, highest first, then by id; with filters
// alone, newest first as in the asset list, with score 0.
func (s *Service) Search(ctx context.Context, p *catalog.Principal, in Input, pg query.Page) ([]Hit, bool, error) {
	loc := in.Loc
	if loc == "" {
		loc = "query"
	}
	if !validQuery(in.Query) {
		return nil, false, catalog.InvalidField("string_too_long", "query must be valid UTF-8 of at most 1000 bytes",
			nil, loc, "query")
	}
	f := in.Filter
	text := strings.TrimSpace(in.Query) != ""
	if !text && in.Image == nil && f.AlbumID == "" && len(f.PersonIDs) == 0 && f.Capture.After == nil && f.Capture.Before == nil {
		return nil, false, catalog.InvalidField("missing", "give at least one search criterion: query, album_id, "+
			"person_ids, local_datetime_after or local_datetime_before (or an image)", nil, loc)
	}
	m, err := s.libs.Select(ctx, p, in.LibraryID, loc, "library_id")
	if err != nil {
		return nil, false, err
	}
	f.LibraryID = m.Library.ID
	if err := albums.InLibrary(ctx, s.store.Read(), f.AlbumID, f.LibraryID); err != nil {
		return nil, false, err
	}
	q := query.SearchQuery{Filter: f}
	if text {
		ok, err := s.textCriteria(ctx, &q, in.Query, loc)
		if err != nil {
			return nil, false, err
		}
		if !ok { // no word can match: nothing does, not even a cursor
			if pg.AfterID != "" {
				return nil, false, catalog.InvalidField("value_error",
					"starting_after_id does not name an item of this search", pg.AfterID, loc, "starting_after_id")
			}
			return nil, false, nil
		}
	}
	if in.Image != nil {
		if q.Image, err = s.imageCriteria(ctx, f.LibraryID, in.Image, loc); err != nil {
			return nil, false, err
		}
	}
	if q.Terms == nil && q.Image == nil {
		list, more, err := s.store.Read().Assets().List(ctx, f, pg)
		hits := make([]Hit, len(list))
		for i := range list {
			hits[i].Asset = list[i]
		}
		return hits, more, err
	}
	found, more, err := s.store.Read().Search().Assets(ctx, q, pg)
	if err != nil {
		return nil, false, err
	}
	hits := make([]Hit, len(found))
	for i := range found {
		hits[i] = Hit{Asset: found[i].Asset, Score: found[i].Score}
	}
	return hits, more, nil
}

// textCriteria adds a query's words to q: each word, or each place name
// of several words (placeTerms), is a term every hit must match. False
// means a word matches nothing, not even by a correction, so nothing
// matches the query: no word is dropped.
func (s *Service) textCriteria(ctx context.Context, q *query.SearchQuery, text, loc string) (bool, error) {
	words := queryWords(text)
	if len(words) > maxQueryWords {
		return false, catalog.InvalidField("too_long", "query may have at most 8 words", text, loc, "query")
	}
	r := s.store.Read().Search()
	terms, err := lookUp(ctx, r, words)
	if err != nil || terms == nil {
		return false, err
	}
	for _, t := range terms {
		names, err := r.Names(ctx, q.Filter.LibraryID, t.names)
		if err != nil {
			return false, err
		}
		q.Terms = append(q.Terms, t.spellings)
		q.Names = append(q.Names, names)
	}
	return true, nil
}
