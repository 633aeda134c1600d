package migrate

import (
	"crypto/sha256"
	"encoding/binary"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestNormaliseSeesBothSidesOfAFaithfulCopyAlike: a SQLite value and what
// PostgreSQL gives back for it render the same, and different values do not.
func TestNormaliseSeesBothSidesOfAFaithfulCopyAlike(t *testing.T) {
	vec := make([]byte, 8)
	binary.LittleEndian.PutUint32(vec, math.Float32bits(0.25))
	binary.LittleEndian.PutUint32(vec[4:], math.Float32bits(-1.5))
	same := []struct {
		udt              string
		sqlite, postgres any
	}{
		{"bool", int64(1), true},
		{"bool", int64(0), false},
		{"int4", int64(7), int32(7)},
		{"int8", int64(1) << 40, int64(1) << 40},
		{"float8", int64(2), float64(2)},
		{"float4", 0.1, float32(0.1)},
		{"text", []byte("héllo"), "héllo"},
		{"bytea", []byte{0, 1, 255}, []byte{0, 1, 255}},
		{"jsonb", `{"b": 1.0, "a": [1, "x"]}`, `{"a": [1, "x"], "b": 1}`},
		{"_float4", vec, []float32{0.25, -1.5}},
		{"_float4", vec, []any{float32(0.25), float32(-1.5)}},
		{"text", nil, nil},
	}
	for _, c := range same {
		col := column{name: "c", udt: c.udt}
		a, an, err := normalise(col, c.sqlite)
		require.NoError(t, err)
		b, bn, err := normalise(col, c.postgres)
		require.NoError(t, err)
		require.Equal(t, a, b, "%s: %v vs %v", c.udt, c.sqlite, c.postgres)
		require.Equal(t, an, bn)
	}
	differ := []struct {
		udt  string
		a, b any
	}{
		{"bool", int64(1), false},
		{"int8", int64(1), int64(2)},
		{"jsonb", `{"a": 1}`, `{"a": 2}`},
		{"text", "", nil},
		{"bytea", []byte{}, nil},
	}
	for _, c := range differ {
		tb := &table{name: "t", columns: []column{{name: "c", udt: c.udt}}}
		ha, hb := sha256.New(), sha256.New()
		require.NoError(t, hashRow(ha, tb, []any{c.a}))
		require.NoError(t, hashRow(hb, tb, []any{c.b}))
		require.NotEqual(t, ha.Sum(nil), hb.Sum(nil), "%s: %v vs %v", c.udt, c.a, c.b)
	}
}

// TestToTargetConvertsSQLiteStorageClasses: SQLite's integers for
// booleans, text for JSON and blobs for vectors go in as PostgreSQL's types.
func TestToTargetConvertsSQLiteStorageClasses(t *testing.T) {
	v, err := toTarget(column{udt: "bool"}, int64(1))
	require.NoError(t, err)
	require.Equal(t, true, v)
	v, err = toTarget(column{udt: "jsonb"}, []byte(`{"a":1}`))
	require.NoError(t, err)
	require.Equal(t, `{"a":1}`, v)
	_, err = toTarget(column{udt: "int8"}, "seven")
	require.ErrorContains(t, err, "cannot store a SQLite string in a int8 column")
}

func TestDependencyOrderPutsReferencedTablesFirst(t *testing.T) {
	tables := map[string]*pgTable{"users": {}, "libraries": {}, "assets": {}, "album_assets": {}, "albums": {}}
	refs := map[string][]string{"libraries": {"users"}, "assets": {"libraries", "users"},
		"albums": {"libraries"}, "album_assets": {"albums", "assets"}}
	order := dependencyOrder(tables, refs)
	pos := map[string]int{}
	for i, n := range order {
		pos[n] = i
	}
	require.Len(t, order, 5)
	for from, tos := range refs {
		for _, to := range tos {
			require.Less(t, pos[to], pos[from], "%s before %s", to, from)
		}
	}
}
