package search

import (
	"context"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/photoctl/photoctl/server/store"
)

// Limits of a text query.
const (
	maxQueryBytes = 1000
	maxQueryWords = 8
	// maxCorrections is how many spellings a mistyped word may gain.
	maxCorrections = 5
)

// stopWords are left out of a query that has other words: they are in
// almost every description ("A photo of a dog") and say nothing of it.
var stopWords = map[string]bool{"a": true, "an": true, "the": true, "of": true, "in": true, "on": true, "at": true,
	"by": true, "with": true, "and": true, "or": true, "for": true, "to": true, "from": true, "my": true, "our": true,
	"photo": true, "photos": true, "picture": true, "pictures": true, "image": true, "images": true}

// queryWords splits a query the way the index's tokenizer splits text
// (unicode61 remove_diacritics 2): letters and digits, case and diacritics
// folded, anything else separating. Stop words are dropped unless nothing
// else is left.
func queryWords(q string) []string {
	folded := norm.NFD.String(q)
	var words []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			words = append(words, cur.String())
			cur.Reset()
		}
	}
	for _, r := range folded {
		switch {
		case unicode.Is(unicode.Mn, r):
			// a diacritic of the letter before
		case unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Co, r):
			cur.WriteRune(unicode.ToLower(r))
		default:
			flush()
		}
	}
	flush()
	kept := slices.DeleteFunc(slices.Clone(words), func(w string) bool { return stopWords[w] })
	if len(kept) == 0 {
		kept = words
	}
	return slices.Compact(kept)
}

// term looks a query word up: the people and albums of the library it
// names, and its spellings. An indexed word matches itself (and its
// inflections: the index stems English words); a word that is not indexed
// matches the words it begins ("kyo" finds "kyoto"); a word that begins
// nothing either matches its corrections. None: nothing can match.
//
// A known word is not also taken as a prefix: FTS5 reads a prefix query by
// merging the lists of every word it begins before returning anything, so
// "heic" as a prefix costs a read of its whole list, where as a word the
// query seeks within it (capture-time windows, below, depend on that).
func (s *Service) term(ctx context.Context, r store.Search, libraryID, word string) (store.SearchTerm, []store.NameMatch, error) {
	var spellings store.SearchTerm
	for _, prefix := range []bool{false, true} {
		found, err := r.HasWord(ctx, word, prefix)
		if err != nil {
			return nil, nil, err
		}
		if found {
			spellings = store.SearchTerm{spelling(word, prefix)}
			break
		}
	}
	if spellings == nil {
		var err error
		if spellings, err = corrections(ctx, r, word); err != nil || len(spellings) == 0 {
			return nil, nil, err
		}
	}
	names, err := r.Names(ctx, libraryID, spellings)
	return spellings, names, err
}

// spelling is a store.SearchTerm spelling: the word, with "*" for a prefix.
func spelling(word string, prefix bool) string {
	if prefix {
		return word + "*"
	}
	return word
}

// corrections returns up to maxCorrections indexed words one edit away
// from a word that matches nothing: a letter left out, added, changed, or
// two neighbours swapped ("kyoot" finds "kyoto"), as a whole word first,
// then as the beginning of one (a mistyped prefix: "kyoo" finds "kyot…").
// The index is asked about each edit, whole words first (cheap lookups),
// so the cost is bounded by the word's length, not the vocabulary's size.
// Words shorter than four letters are not corrected: too many words lie
// one edit away.
func corrections(ctx context.Context, r store.Search, word string) ([]string, error) {
	if utf8.RuneCountInString(word) < 4 {
		return nil, nil
	}
	edits := oneEdit(word)
	var out []string
	for _, prefix := range []bool{false, true} {
		for _, e := range edits {
			ok, err := r.HasWord(ctx, e, prefix)
			if err != nil {
				return nil, err
			}
			if ok {
				if out = append(out, spelling(e, prefix)); len(out) == maxCorrections {
					return out, nil
				}
			}
		}
		if len(out) > 0 {
			return out, nil
		}
	}
	return out, nil
}

// oneEdit returns the distinct words one edit from w: transpositions
// first (the commonest typing slip), then deletions, substitutions and
// insertions of the letters a–z, the digits and w's own letters.
func oneEdit(w string) []string {
	runes := []rune(w)
	alphabet := []rune("abcdefghijklmnopqrstuvwxyz0123456789")
	for _, r := range runes {
		if !slices.Contains(alphabet, r) {
			alphabet = append(alphabet, r)
		}
	}
	seen := map[string]bool{w: true}
	var out []string
	add := func(rs []rune) {
		if s := string(rs); !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for i := 0; i+1 < len(runes); i++ {
		rs := slices.Clone(runes)
		rs[i], rs[i+1] = rs[i+1], rs[i]
		add(rs)
	}
	for i := range runes {
		add(slices.Concat(runes[:i], runes[i+1:]))
	}
	for i := range runes {
		for _, c := range alphabet {
			rs := slices.Clone(runes)
			rs[i] = c
			add(rs)
		}
	}
	for i := 0; i <= len(runes); i++ {
		for _, c := range alphabet {
			add(slices.Concat(runes[:i], []rune{c}, runes[i:]))
		}
	}
	return out
}

// validQuery reports whether a query is within the limits.
func validQuery(q string) bool { return len(q) <= maxQueryBytes && utf8.ValidString(q) }
