package exif

import (
	"math"
	"strconv"
	"strings"
)

// tags answers lookups in the JSON objects exiftool printed (`-j -n`, tag
// names without groups): a sidecar's first, then the file's. Facts about the
// file itself (type, dimensions, duration, frame rate, colour profile) are
// looked up in the file only, so a sidecar cannot change them.
type tags struct {
	sidecar map[string]any // nil without a sidecar
	file    map[string]any
}

// source is one of the JSON objects.
type source struct {
	fields  map[string]any
	sidecar bool
}

// sources lists the objects to consult, best first.
func (t tags) sources(fileOnly bool) []source {
	if fileOnly || t.sidecar == nil {
		return []source{{fields: t.file}}
	}
	return []source{{fields: t.sidecar, sidecar: true}, {fields: t.file}}
}

// lookup returns the first value found under keys (keys in order within
// each source, sidecar before file) and the source it came from.
func (t tags) lookup(fileOnly bool, keys ...string) (any, source) {
	for _, src := range t.sources(fileOnly) {
		for _, k := range keys {
			if v, ok := src.fields[k]; ok && v != nil {
				if s, isStr := v.(string); isStr && strings.TrimSpace(s) == "" {
					continue
				}
				return v, src
			}
		}
	}
	return nil, source{}
}

// str is the first non-empty text under keys.
func (t tags) str(keys ...string) *string { return t.text(false, keys) }

// fileStr is str in the file only.
func (t tags) fileStr(keys ...string) *string { return t.text(true, keys) }

func (t tags) text(fileOnly bool, keys []string) *string {
	v, _ := t.lookup(fileOnly, keys...)
	if s, ok := text(v); ok {
		return &s
	}
	return nil
}

// num is the first number under keys.
func (t tags) num(keys ...string) *float64 { return t.number(false, keys) }

// fileNum is num in the file only.
func (t tags) fileNum(keys ...string) *float64 { return t.number(true, keys) }

func (t tags) number(fileOnly bool, keys []string) *float64 {
	v, _ := t.lookup(fileOnly, keys...)
	if f, ok := number(v); ok {
		return &f
	}
	return nil
}

// text converts a JSON value to trimmed text. exiftool prints
// numeric-looking strings as numbers (a Model "100" arrives as 100), so
// numbers are formatted back; a list gives its first element.
func text(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		s := strings.TrimSpace(x)
		return s, s != ""
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), true
	case bool:
		return strconv.FormatBool(x), true
	case []any:
		if len(x) > 0 {
			return text(x[0])
		}
	}
	return "", false
}

// number converts a JSON value to a finite number. With -n exiftool prints
// most numbers as such, but some arrive as strings: long decimals
// ("0.000778999995282088"), lists ("100 100", first taken) and rationals.
func number(v any) (float64, bool) {
	var f float64
	switch x := v.(type) {
	case float64:
		f = x
	case string:
		fields := strings.Fields(x)
		if len(fields) == 0 {
			return 0, false
		}
		s := fields[0]
		if num, den, isRatio := strings.Cut(s, "/"); isRatio {
			n, err1 := strconv.ParseFloat(num, 64)
			d, err2 := strconv.ParseFloat(den, 64)
			if err1 != nil || err2 != nil || d == 0 {
				return 0, false
			}
			f = n / d
		} else {
			var err error
			if f, err = strconv.ParseFloat(s, 64); err != nil {
				return 0, false
			}
		}
	default:
		return 0, false
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

// positive drops zero and negative values, which cameras write for "not
// recorded" (an ExposureTime of 0, an FNumber of 0).
func positive(f *float64) *float64 {
	if f == nil || *f <= 0 {
		return nil
	}
	return f
}
