package postgres

import (
	"context"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/store/sqlstore"
)

// search reads the content-search tables of migration 0013_search: search_text
// (a tsvector per asset) and search_names (one per named person or album),
// both under GIN indexes. The ranked query is in search_query.go, what
// both dialects do alike in sqlstore/search.go.
type search struct{ q conn }

var _ store.Search = search{}

// Search returns the content-search repository.
func (r repos) Search() store.Search { return search{r.q} }

// wordQuery is the SQL of one spelling's tsquery (search_word_query of
// 0013: folded and stemmed like the text) with its arguments. A trailing
// "*" makes it a prefix, but a one-letter prefix is taken as a word: as a
// prefix it would read much of the index (as in the SQLite store).
func wordQuery(spelling string) (string, []any) {
	w, prefix := strings.CutSuffix(spelling, "*")
	return "search_word_query(?, ?)", []any{w, prefix && utf8.RuneCountInString(w) > 1}
}

// termQuery is the tsquery of a term: any of its spellings.
func termQuery(t store.SearchTerm) (string, []any) {
	alts := make([]string, len(t))
	var args []any
	for i, s := range t {
		q, a := wordQuery(s)
		alts[i], args = q, append(args, a...)
	}
	return "(" + strings.Join(alts, " || ") + ")", args
}

func (s search) Names(ctx context.Context, libraryID string, term store.SearchTerm) ([]store.NameMatch, error) {
	q, args := termQuery(term)
	return sqlstore.SearchNames(ctx, s.sq(), `SELECT kind, ref_id FROM search_names WHERE library_id = ? AND document @@ `+q,
		append([]any{libraryID}, args...)...)
}

func (s search) HasWord(ctx context.Context, word string, prefix bool) (bool, error) {
	spelling := word
	if prefix {
		spelling += "*"
	}
	q, args := wordQuery(spelling)
	var found bool
	err := s.q.queryRow(ctx, `SELECT EXISTS (SELECT 1 FROM search_text WHERE document @@ `+q+`)
		OR EXISTS (SELECT 1 FROM search_names WHERE document @@ `+q+`)`, append(args, args...)...).Scan(&found)
	return found, translate(err)
}

// phashBand is the SQL of band i of an asset's perceptual hash, as the
// expression indexes assets_phash_b0..3 (0013) hold it.
func phashBand(i int) string {
	return "substr(a.metrics ->> 'phash', " + strconv.Itoa(1+4*i) + ", 4)"
}

func (s search) PHashCandidates(ctx context.Context, libraryID string, bands [4][]string, limit int) ([]store.PHashCandidate, error) {
	return sqlstore.PHashCandidates(ctx, s.sq(), libraryID, bands, limit)
}

func (s search) PersonVectors(ctx context.Context, libraryID string, limit int) ([]store.PersonVector, error) {
	// The clustering's centroid sum when it is up to date, else the
	// featured face's embedding.
	return sqlstore.PersonVectors(ctx, s.sq(), `SELECT id, v FROM (
		SELECT p.id, p.face_count, CASE WHEN NOT c.stale AND c.n > 0 THEN c.sum ELSE f.embedding END AS v
		FROM people p LEFT JOIN person_centroids c ON c.person_id = p.id LEFT JOIN faces f ON f.id = p.thumbnail_face_id
		WHERE p.library_id = ? AND p.face_count > 0) x
		WHERE v IS NOT NULL ORDER BY face_count DESC, id LIMIT ?`, libraryID, limit)
}

// sq is s's conn for sqlstore.
func (s search) sq() sqlstore.Q { return sqlstore.NewQ(s.q, dialect) }
