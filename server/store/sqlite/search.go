package sqlite

import (
	"strings"
	"unicode/utf8"

	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store/sqlstore"
)

// fts is the dialect's TextIndex (sqlstore/search.go): the content-search
// indexes of migration 0013 (FTS5). The criteria of a ranked search are in
// search_query.go.
type fts struct{}

var _ sqlstore.TextIndex = fts{}

// ftsTerm is the FTS5 expression of a term: any of its spellings, each a
// word (words with spaces: a phrase) or, with a trailing "*", the
// beginning of one (a one-letter prefix
// is taken as a word: as a prefix it would read much of the index).
// Spellings are quoted, so nothing in them is syntax.
func ftsTerm(t query.SearchTerm) string {
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
func ftsAll(terms []query.SearchTerm, timeExpr string) string {
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

func (fts) Names(libraryID string, term query.SearchTerm) (string, []any) {
	return `SELECT r.kind, r.ref_id FROM search_names n CROSS JOIN search_name_refs r ON r.doc = n.rowid
		WHERE search_names MATCH ? AND r.library_id = ?`, []any{ftsTerm(term), libraryID}
}

func (fts) HasWord(word string, prefix bool) (string, []any) {
	w := ftsWord(word, prefix && utf8.RuneCountInString(word) > 1)
	return `SELECT 1 FROM search_text WHERE search_text MATCH ?
		UNION ALL SELECT 1 FROM search_names WHERE search_names MATCH ? LIMIT 1`, []any{textColumns + w, w}
}

func (fts) HasPlace(words []string) (string, []any) {
	return `SELECT 1 FROM search_text WHERE search_text MATCH ? LIMIT 1`,
		[]any{"{place} : " + ftsWord(strings.Join(words, " "), false)}
}

// HasLonger asks the indexes' word lists (migration 0021): a word after
// word and before word followed by the greatest code point begins with
// it.
func (fts) HasLonger(word string) (string, []any) {
	return `SELECT 1 FROM search_text_words WHERE term > ? AND term < ?
		UNION ALL SELECT 1 FROM search_names_words WHERE term > ? AND term < ? LIMIT 1`,
		[]any{word, word + "\U0010FFFF", word, word + "\U0010FFFF"}
}
