package postgres

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store/sqlstore"
)

// tsearch is the dialect's TextIndex (sqlstore/search.go): the
// content-search tables of migration 0013_search, search_text (a tsvector
// per asset) and search_names (one per named person or album), both under
// GIN indexes. The criteria of a ranked search are in search_query.go.
type tsearch struct{}

var _ sqlstore.TextIndex = tsearch{}

// wordQuery is the SQL of one spelling's tsquery (search_word_query of
// 0013: folded and stemmed like the text; words with spaces are a phrase)
// with its arguments. A trailing
// "*" makes it a prefix, but a one-letter prefix is taken as a word: as a
// prefix it would read much of the index (as in the SQLite store).
func wordQuery(spelling string) (string, []any) {
	w, prefix := strings.CutSuffix(spelling, "*")
	return "search_word_query(?, ?)", []any{w, prefix && utf8.RuneCountInString(w) > 1}
}

// termQuery is the tsquery of a term: any of its spellings.
func termQuery(t query.SearchTerm) (string, []any) {
	alts := make([]string, len(t))
	var args []any
	for i, s := range t {
		q, a := wordQuery(s)
		alts[i], args = q, append(args, a...)
	}
	return "(" + strings.Join(alts, " || ") + ")", args
}

func (tsearch) Names(libraryID string, term query.SearchTerm) (string, []any) {
	q, args := termQuery(term)
	return `SELECT kind, ref_id FROM search_names WHERE library_id = ? AND document @@ ` + q, append([]any{libraryID}, args...)
}

func (tsearch) HasWord(word string, prefix bool) (string, []any) {
	spelling := word
	if prefix {
		spelling += "*"
	}
	q, args := wordQuery(spelling)
	return `SELECT 1 WHERE EXISTS (SELECT 1 FROM search_text WHERE document @@ ` + q + `)
		OR EXISTS (SELECT 1 FROM search_names WHERE document @@ ` + q + `)`, append(args, args...)
}

// phashBand is the SQL of band i of an asset's perceptual hash, as the
// expression indexes assets_phash_b0..3 (0013) hold it.
func phashBand(i int) string {
	return "substr(a.metrics ->> 'phash', " + strconv.Itoa(1+4*i) + ", 4)"
}

// HasPlace asks for the phrase among the words labelled A (place and file
// name: search_document), through the GIN index for the words.
func (tsearch) HasPlace(words []string) (string, []any) {
	q, args := wordQuery(strings.Join(words, " "))
	return `SELECT 1 FROM search_text WHERE document @@ ` + q + ` AND ts_filter(document, '{a}') @@ ` + q + ` LIMIT 1`,
		append(args, args...)
}

// HasLonger answers true: the lexemes have no list to ask cheaply
// (ts_stat reads every document). A prefix query is stemmed here too
// (Snowball: "parking:*" is 'park':*), which this store leaves as it is.
func (tsearch) HasLonger(string) (string, []any) { return `SELECT 1`, nil }
