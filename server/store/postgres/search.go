package postgres

import (
	"context"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/photoctl/photoctl/server/store"
)

// search reads the content-search tables of migration 0010: search_text
// (a tsvector per asset) and search_names (one per named person or album),
// both under GIN indexes. The ranked query is in search_query.go.
type search struct{ q conn }

var _ store.Search = search{}

// Search returns the content-search repository.
func (r repos) Search() store.Search { return search{r.q} }

// wordQuery is the SQL of one spelling's tsquery (search_word_query of
// 0010: folded and stemmed like the text) with its arguments. A trailing
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
	rows, err := s.q.query(ctx, `SELECT kind, ref_id FROM search_names WHERE library_id = ? AND document @@ `+q,
		append([]any{libraryID}, args...)...)
	if err != nil {
		return nil, translate(err)
	}
	defer rows.Close()
	var out []store.NameMatch
	for rows.Next() {
		var m store.NameMatch
		var kind string
		if err := rows.Scan(&kind, &m.ID); err != nil {
			return nil, err
		}
		m.Kind = store.NameKind(kind)
		out = append(out, m)
	}
	return out, translate(rows.Err())
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
// expression indexes assets_phash_b0..3 (0010) hold it.
func phashBand(i int) string {
	return "substr(a.metrics ->> 'phash', " + strconv.Itoa(1+4*i) + ", 4)"
}

func (s search) PHashCandidates(ctx context.Context, libraryID string, bands [4][]string, limit int) ([]store.PHashCandidate, error) {
	var ors []string
	var args []any
	for i, values := range bands {
		if len(values) == 0 {
			continue
		}
		ors = append(ors, "(a.library_id = ? AND "+phashBand(i)+" = ANY(?::text[]))")
		args = append(args, libraryID, values)
	}
	if len(ors) == 0 {
		return nil, nil
	}
	rows, err := s.q.query(ctx, `SELECT a.id, a.metrics ->> 'phash', coalesce(a.metrics ->> 'colors', '')
		FROM assets a WHERE `+strings.Join(ors, " OR ")+` LIMIT ?`, append(args, limit)...)
	if err != nil {
		return nil, translate(err)
	}
	defer rows.Close()
	var out []store.PHashCandidate
	for rows.Next() {
		var c store.PHashCandidate
		if err := rows.Scan(&c.ID, &c.PHash, &c.Colors); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, translate(rows.Err())
}

func (s search) PersonVectors(ctx context.Context, libraryID string, limit int) ([]store.PersonVector, error) {
	// The clustering's centroid sum when it is up to date, else the
	// featured face's embedding.
	rows, err := s.q.query(ctx, `SELECT id, v FROM (
		SELECT p.id, p.face_count, CASE WHEN NOT c.stale AND c.n > 0 THEN c.sum ELSE f.embedding END AS v
		FROM people p LEFT JOIN person_centroids c ON c.person_id = p.id LEFT JOIN faces f ON f.id = p.thumbnail_face_id
		WHERE p.library_id = ? AND p.face_count > 0) x
		WHERE v IS NOT NULL ORDER BY face_count DESC, id LIMIT ?`, libraryID, limit)
	if err != nil {
		return nil, translate(err)
	}
	defer rows.Close()
	var out []store.PersonVector
	for rows.Next() {
		var v store.PersonVector
		if err := rows.Scan(&v.PersonID, &v.Embedding); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, translate(rows.Err())
}
