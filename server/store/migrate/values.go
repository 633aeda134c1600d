package migrate

import (
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"math"
	"strconv"
)

// toTarget converts a value read from SQLite into what the target column
// takes: SQLite keeps booleans as integers, JSON as text and float vectors
// as little-endian blobs.
func toTarget(c column, v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	switch c.udt {
	case "bool":
		switch x := v.(type) {
		case int64:
			return x != 0, nil
		case bool:
			return x, nil
		}
	case "int2", "int4", "int8":
		switch x := v.(type) {
		case int64:
			return x, nil
		case float64:
			if x == math.Trunc(x) {
				return int64(x), nil
			}
		}
	case "float4", "float8", "numeric":
		switch x := v.(type) {
		case int64:
			return float64(x), nil
		case float64:
			return x, nil
		}
	case "text", "varchar", "bpchar":
		switch x := v.(type) {
		case string:
			return x, nil
		case []byte:
			return string(x), nil
		}
	case "json", "jsonb":
		switch x := v.(type) {
		case string:
			return x, nil // pgx sends a string as the JSON text itself
		case []byte:
			return string(x), nil
		}
	case "bytea":
		switch x := v.(type) {
		case []byte:
			return x, nil
		case string:
			return []byte(x), nil
		}
	case "_float4":
		if b, ok := v.([]byte); ok && len(b)%4 == 0 {
			out := make([]float32, len(b)/4)
			for i := range out {
				out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
			}
			return out, nil
		}
	case "_float8":
		if b, ok := v.([]byte); ok && len(b)%8 == 0 {
			out := make([]float64, len(b)/8)
			for i := range out {
				out[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
			}
			return out, nil
		}
	default:
		return v, nil // let pgx try; a mismatch fails the copy, naming the column
	}
	return nil, fmt.Errorf("cannot store a SQLite %T in a %s column", v, c.udt)
}

// hashRow writes one row into h: each value normalised by its target
// column's type, so that both sides of a faithful copy hash the same.
func hashRow(h hash.Hash, t *table, vals []any) error {
	for i, c := range t.columns {
		s, null, err := normalise(c, vals[i])
		if err != nil {
			return fmt.Errorf("%s.%s: %w", t.name, c.name, err)
		}
		if null {
			h.Write([]byte{0})
			continue
		}
		var n [9]byte
		n[0] = 1
		binary.LittleEndian.PutUint64(n[1:], uint64(len(s)))
		h.Write(n[:])
		h.Write([]byte(s))
	}
	return nil
}

// normalise renders a value of either side as text, by the target type.
func normalise(c column, v any) (string, bool, error) {
	if v == nil {
		return "", true, nil
	}
	if c.udt == "_float4" || c.udt == "_float8" {
		if b, ok := v.([]byte); ok { // the SQLite side
			conv, err := toTarget(c, b)
			if err != nil {
				return "", false, err
			}
			v = conv
		}
		return floats(v)
	}
	switch x := v.(type) {
	case bool:
		if x {
			return "1", false, nil
		}
		return "0", false, nil
	case int16:
		return strconv.FormatInt(int64(x), 10), false, nil
	case int32:
		return strconv.FormatInt(int64(x), 10), false, nil
	case int64:
		switch c.udt {
		case "bool":
			if x != 0 {
				return "1", false, nil
			}
			return "0", false, nil
		case "float4", "float8", "numeric":
			return formatFloat(c, float64(x)), false, nil
		}
		return strconv.FormatInt(x, 10), false, nil
	case float32:
		return formatFloat(c, float64(x)), false, nil
	case float64:
		return formatFloat(c, x), false, nil
	case []byte:
		if c.udt == "bytea" {
			return hex.EncodeToString(x), false, nil
		}
		return normalise(c, string(x))
	case string:
		switch c.udt {
		case "bytea":
			return hex.EncodeToString([]byte(x)), false, nil
		case "json", "jsonb":
			var j any
			if err := json.Unmarshal([]byte(x), &j); err != nil {
				return "", false, fmt.Errorf("invalid JSON: %w", err)
			}
			b, err := json.Marshal(j) // object keys sorted, numbers and spacing canonical
			return string(b), false, err
		}
		return x, false, nil
	}
	return fmt.Sprintf("%T:%v", v, v), false, nil
}

// formatFloat renders a float at the precision of the target column.
func formatFloat(c column, f float64) string {
	if c.udt == "float4" {
		return strconv.FormatFloat(float64(float32(f)), 'g', -1, 32)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// floats renders a float vector ([]float32, []float64 or pgx's []any).
func floats(v any) (string, bool, error) {
	var out []byte
	add := func(f float64) { out = strconv.AppendFloat(append(out, ','), f, 'g', -1, 64) }
	switch x := v.(type) {
	case []float32:
		for _, f := range x {
			add(float64(f))
		}
	case []float64:
		for _, f := range x {
			add(f)
		}
	case []any:
		for _, e := range x {
			switch f := e.(type) {
			case float32:
				add(float64(f))
			case float64:
				add(f)
			default:
				return "", false, fmt.Errorf("vector element %T", e)
			}
		}
	default:
		return "", false, fmt.Errorf("vector of %T", v)
	}
	return string(out), false, nil
}
