package wordsplit

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// tokens splits text the way the search index's tokenizer does (SQLite's
// unicode61 remove_diacritics 2, PostgreSQL's search_fold): runs of
// letters and digits, in lower case, without diacritics ("CAFÉBAR" is
// cafebar); anything else separates.
func tokens(text string) []string {
	if !isASCII(text) {
		text = norm.NFD.String(text)
	}
	var out []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, cur.String())
			cur.Reset()
		}
	}
	for _, r := range text {
		switch {
		case unicode.Is(unicode.Mn, r):
			// a diacritic of the letter before
		case unicode.IsLetter(r) || unicode.IsNumber(r):
			cur.WriteRune(unicode.ToLower(r))
		default:
			flush()
		}
	}
	flush()
	return out
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
