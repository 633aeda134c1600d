package search

import (
	"context"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// Limits of a text query.
const (
	maxQueryBytes = 1000
	maxQueryWords = 8
	// maxCorrections is how many spellings a mistyped word may gain.
	maxCorrections = 5
	// minPrefixCorrection is the shortest word corrected to the
	// beginning of a word (corrections).
	minPrefixCorrection = 6
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

// lookedUp is the term of a query word, or of a place name of several
// words: the spellings the assets' text is searched by, and those the
// names of people and albums are.
type lookedUp struct {
	spellings query.SearchTerm
	names     query.SearchTerm
}

// Limits of the words a term takes.
const (
	// minPrefix is the shortest known word that also finds the words it
	// begins: "sun" finds "sunset", "su" only "su".
	minPrefix = 3
	// maxPlaceWords is the longest place name matched as a phrase.
	maxPlaceWords = 4
)

// lookUp returns the terms of a query's words, or nil when a word matches
// nothing: its hits would not hold it.
//   - A word in the index matches itself and its inflections (the index
//     stems English words) and, from minPrefix letters, the words it
//     begins, ranked below it (query.ExactBonus): "sun" finds photos of
//     the sun first, then of sunsets. People and albums match it whole.
//   - Neighbouring words that are, in this order, the place name of an
//     asset ("cape canaveral", "new york") are one term, a phrase: a photo
//     of York with "new" in its caption is not a hit.
//   - A word that is not in the index matches the words it begins ("kyo"
//     finds "kyoto").
//   - A word that begins none matches its corrections (corrections): only
//     a word nothing matches is corrected.
//
// A known word is asked for as a prefix only when it is at least minPrefix
// long and a longer indexed word begins with it (HasLonger): FTS5 reads a
// prefix query by merging the lists of every word it begins before
// returning anything (its prefix indexes cover two and three letters), and
// the bonus of the whole word costs a second read of its list, which
// "heic" (in a third of a large library, and the beginning of no other
// word) would pay for nothing.
func lookUp(ctx context.Context, r store.Search, words []string) ([]lookedUp, error) {
	known := make([]bool, len(words))
	for i, w := range words {
		var err error
		if known[i], err = r.HasWord(ctx, w, false); err != nil {
			return nil, err
		}
	}
	var terms []lookedUp
	for i := 0; i < len(words); i++ {
		if n, err := placeName(ctx, r, words[i:], known[i:]); err != nil {
			return nil, err
		} else if n > 0 {
			phrase := query.SearchTerm{strings.Join(words[i:i+n], " ")}
			terms = append(terms, lookedUp{spellings: phrase, names: phrase})
			i += n - 1
			continue
		}
		w := words[i]
		if known[i] {
			t := lookedUp{spellings: query.SearchTerm{w}, names: query.SearchTerm{w}}
			if utf8.RuneCountInString(w) >= minPrefix {
				longer, err := r.HasLonger(ctx, w)
				if err != nil {
					return nil, err
				}
				if longer {
					t.spellings = append(t.spellings, spelling(w, true))
				}
			}
			terms = append(terms, t)
			continue
		}
		spellings, err := unknownWord(ctx, r, w)
		if err != nil || spellings == nil {
			return nil, err
		}
		terms = append(terms, lookedUp{spellings: spellings, names: spellings})
	}
	return terms, nil
}

// placeName returns how many of the first words (all known, at least two)
// are a place name of an asset, longest first; 0 for none.
func placeName(ctx context.Context, r store.Search, words []string, known []bool) (int, error) {
	n := 0
	for n < len(words) && n < maxPlaceWords && known[n] {
		n++
	}
	for ; n >= 2; n-- {
		found, err := r.HasPlace(ctx, words[:n])
		if err != nil || found {
			return n, err
		}
	}
	return 0, nil
}

// unknownWord returns the spellings of a word that is not in the index:
// the words it begins, else its corrections; nil when there are none.
func unknownWord(ctx context.Context, r store.Search, word string) (query.SearchTerm, error) {
	found, err := begins(ctx, r, word)
	if err != nil {
		return nil, err
	}
	if found {
		return query.SearchTerm{spelling(word, true)}, nil
	}
	return corrections(ctx, r, word)
}

// isWord reports whether word is an indexed word or, with prefix, begins
// one as typed (begins).
func isWord(ctx context.Context, r store.Search, word string, prefix bool) (bool, error) {
	if prefix {
		return begins(ctx, r, word)
	}
	return r.HasWord(ctx, word, false)
}

// begins reports whether an indexed word begins with word, as typed: a
// prefix query of the word matches (its cheaper question first), and the
// index's word list holds a word that begins with the word unstemmed
// (HasLonger): the index stems a prefix, so "imes"* alone would be "im"*.
func begins(ctx context.Context, r store.Search, word string) (bool, error) {
	longer, err := r.HasLonger(ctx, word)
	if err != nil || !longer {
		return false, err
	}
	return r.HasWord(ctx, word, true)
}

// spelling is a query.SearchTerm spelling: the word, with "*" for a prefix.
func spelling(word string, prefix bool) string {
	if prefix {
		return word + "*"
	}
	return word
}

// corrections returns up to maxCorrections indexed words one edit away
// from a word that matches nothing: a letter left out, added, changed, or
// two neighbours swapped ("kyoot" finds "kyoto"), as a whole word first,
// then, for words of minPrefixCorrection letters or more, as the
// beginning of one (a mistyped prefix: "motorcyl" finds "motorcycle").
// The index is asked about each edit, whole words first (cheap lookups),
// so the cost is bounded by the word's length, not the vocabulary's size.
// Words shorter than four letters are not corrected: too many words lie
// one edit away.
//
// Shorter words are not corrected as prefixes: one edit from a short word
// begins too many words, and the index stems a prefix before it looks it
// up ("imes", an edit of "times", is the stem "im", the beginning of
// "img"), so such a hit need not hold anything like the word typed.
func corrections(ctx context.Context, r store.Search, word string) ([]string, error) {
	n := utf8.RuneCountInString(word)
	if n < 4 {
		return nil, nil
	}
	edits := oneEdit(word)
	var out []string
	for _, prefix := range []bool{false, true} {
		if prefix && n < minPrefixCorrection {
			break
		}
		for _, e := range edits {
			if prefix && utf8.RuneCountInString(e) < n {
				continue // a letter left out of a prefix: the shorter prefix begins more
			}
			ok, err := isWord(ctx, r, e, prefix)
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
