package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/store/sqlstore"
)

// search reads the content-search indexes of migration 0013 (FTS5); the
// ranked query is in search_query.go, what both dialects do alike in
// sqlstore/search.go.
type search struct{ q querier }

var _ store.Search = search{}

func (r repos) Search() store.Search { return search{r.q} }

// ftsTerm is the FTS5 expression of a term: any of its spellings, each a
// word or, with a trailing "*", the beginning of one (a one-letter prefix
// is taken as a word: as a prefix it would read much of the index).
// Spellings are quoted, so nothing in them is syntax.
func ftsTerm(t store.SearchTerm) string {
	alts := make([]string, len(t))
	for i, s := range t {
		w, prefix := strings.CutSuffix(s, "*")
		alts[i] = ftsWord(w, prefix && utf8.RuneCountInString(w) > 1)
	}
	if len(alts) == 1 {
		return alts[0]
	}
	return "(" + strings.Join(alts, " OR ") + ")"
}

// ftsWord quotes a word for an FTS5 expression, as a prefix or not.
func ftsWord(w string, prefix bool) string {
	q := `"` + strings.ReplaceAll(w, `"`, `""`) + `"`
	if prefix {
		q += "*"
	}
	return q
}

// textColumns limits an expression to the text columns of search_text
// (not time).
const textColumns = "{description ocr place file camera} : "

// ftsAll is the search_text expression matching every term in the text
// columns, and the capture-time tokens when given (timeExpr).
func ftsAll(terms []store.SearchTerm, timeExpr string) string {
	parts := make([]string, len(terms))
	for i, t := range terms {
		parts[i] = ftsTerm(t)
	}
	expr := textColumns + "(" + strings.Join(parts, " AND ") + ")"
	if timeExpr != "" {
		expr = "(" + expr + ") AND " + timeExpr
	}
	return expr
}

func (s search) Names(ctx context.Context, libraryID string, term store.SearchTerm) ([]store.NameMatch, error) {
	return sqlstore.SearchNames(ctx, s.sq(), `SELECT r.kind, r.ref_id FROM search_names n
		CROSS JOIN search_name_refs r ON r.doc = n.rowid
		WHERE search_names MATCH ? AND r.library_id = ?`, ftsTerm(term), libraryID)
}

func (s search) HasWord(ctx context.Context, word string, prefix bool) (bool, error) {
	w := ftsWord(word, prefix && utf8.RuneCountInString(word) > 1)
	var one int
	err := s.q.QueryRowContext(ctx, `SELECT 1 FROM search_text WHERE search_text MATCH ?
		UNION ALL SELECT 1 FROM search_names WHERE search_names MATCH ? LIMIT 1`, textColumns+w, w).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, translate(err)
}

func (s search) PHashCandidates(ctx context.Context, libraryID string, bands [4][]string, limit int) ([]store.PHashCandidate, error) {
	return sqlstore.PHashCandidates(ctx, s.sq(), libraryID, bands, limit)
}

func (s search) PersonVectors(ctx context.Context, libraryID string, limit int) ([]store.PersonVector, error) {
	// The clustering's centroid sum when it is up to date, else the
	// featured face's embedding.
	return sqlstore.PersonVectors(ctx, s.sq(), `SELECT p.id, CASE WHEN c.stale = 0 AND c.n > 0 THEN c.sum ELSE f.embedding END AS v
		FROM people p LEFT JOIN person_centroids c ON c.person_id = p.id LEFT JOIN faces f ON f.id = p.thumbnail_face_id
		WHERE p.library_id = ? AND p.face_count > 0 AND v IS NOT NULL ORDER BY p.face_count DESC, p.id LIMIT ?`,
		libraryID, limit)
}

// sq is s's querier for sqlstore.
func (s search) sq() sqlstore.Q { return sqlstore.NewQ(sqlConn{s.q}, dialect) }
