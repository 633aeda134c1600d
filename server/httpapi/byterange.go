package httpapi

import (
	"math"
	"strings"
)

// fileRange is what a Range header asks of a file: the whole file, the
// bytes first to last (inclusive), or nothing it has (unsatisfiable).
type fileRange struct {
	whole, unsatisfiable bool
	first, last          int64
}

// byteRange reads a Range header against a file of size bytes by RFC 9110
// §14.1.2. A first position at or beyond the end, and a suffix of zero
// bytes (bytes=-0) or of an empty file, are unsatisfiable. The header is
// ignored (the whole file), as RFC 9110 allows, when it is absent, names
// another unit, asks for several ranges or is malformed (bytes=5-2).
func byteRange(header string, size int64) fileRange {
	whole := fileRange{whole: true}
	unit, set, ok := strings.Cut(header, "=")
	if !ok || !strings.EqualFold(strings.TrimSpace(unit), "bytes") || strings.Contains(set, ",") {
		return whole
	}
	from, to, ok := strings.Cut(strings.TrimSpace(set), "-")
	if !ok {
		return whole
	}
	from, to = strings.TrimSpace(from), strings.TrimSpace(to)
	if from == "" { // a suffix: the last n bytes
		n, ok := digits(to)
		switch {
		case !ok:
			return whole
		case n == 0 || size == 0:
			return fileRange{unsatisfiable: true}
		}
		return fileRange{first: max(0, size-n), last: size - 1}
	}
	first, ok := digits(from)
	if !ok {
		return whole
	}
	last := int64(math.MaxInt64)
	if to != "" {
		if last, ok = digits(to); !ok || last < first {
			return whole
		}
	}
	if first >= size {
		return fileRange{unsatisfiable: true}
	}
	return fileRange{first: first, last: min(last, size-1)}
}

// digits reads a run of ASCII digits (no sign, no space); a number too
// large for int64 reads as the largest, which is past any file's end.
func digits(s string) (int64, bool) {
	if s == "" {
		return 0, false
	}
	var n int64
	for i := 0; i < len(s); i++ {
		d := s[i]
		if d < '0' || d > '9' {
			return 0, false
		}
		if n > (math.MaxInt64-int64(d-'0'))/10 {
			n = math.MaxInt64
			continue
		}
		n = n*10 + int64(d-'0')
	}
	return n, true
}
