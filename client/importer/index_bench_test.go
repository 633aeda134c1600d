package importer

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// The index format was chosen by these numbers (docs/performance.md, "CLI
// upload"): the append-only log against a gob snapshot of the same map,
// which would have to be rewritten whole after every run (and lose the run
// on a crash), for the 100,000 files of the re-run target.

const benchEntries = 100_000

func benchPath(i int) string { return fmt.Sprintf("%03d/IMG_%06d.jpg", i/1000, i) }

func writeBenchLog(b *testing.B) string {
	b.Helper()
	path := filepath.Join(b.TempDir(), "x.log")
	x, err := OpenIndex(path)
	if err != nil {
		b.Fatal(err)
	}
	mt := time.Unix(1700000000, 0)
	for i := range benchEntries {
		if err := x.Add(benchPath(i), int64(i), mt, sha256.Sum256([]byte(benchPath(i)))); err != nil {
			b.Fatal(err)
		}
	}
	if err := x.Close(false); err != nil {
		b.Fatal(err)
	}
	return path
}

func BenchmarkIndexAppend100k(b *testing.B) {
	for b.Loop() {
		writeBenchLog(b)
	}
}

func BenchmarkIndexOpen100k(b *testing.B) {
	path := writeBenchLog(b)
	fi, _ := os.Stat(path)
	b.ReportMetric(float64(fi.Size())/benchEntries, "bytes/entry")
	b.ResetTimer()
	for b.Loop() {
		x, err := OpenIndex(path)
		if err != nil {
			b.Fatal(err)
		}
		x.Close(false)
	}
}

// gobEntry is the same entry with exported fields, for gob.
type gobEntry struct {
	Size, ModTime int64
	Sum           [sha256.Size]byte
}

func BenchmarkGobSnapshotSaveAndLoad100k(b *testing.B) {
	m := make(map[string]gobEntry, benchEntries)
	for i := range benchEntries {
		m[benchPath(i)] = gobEntry{Size: int64(i), ModTime: 1700000000, Sum: sha256.Sum256([]byte(benchPath(i)))}
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(m); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(buf.Len())/benchEntries, "bytes/entry")
	b.Run("load", func(b *testing.B) {
		for b.Loop() {
			var got map[string]gobEntry
			if err := gob.NewDecoder(bytes.NewReader(buf.Bytes())).Decode(&got); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("save", func(b *testing.B) {
		for b.Loop() {
			var out bytes.Buffer
			if err := gob.NewEncoder(&out).Encode(m); err != nil {
				b.Fatal(err)
			}
		}
	})
}
