package main

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCommittedTownListIsReproducible rebuilds the town list from the
// fetched cities.pbf (scripts/fetch-geodata; skipped when it is not in
// $PHOTOCTL_GEO_CACHE or .cache/geo) and requires the committed bytes.
func TestCommittedTownListIsReproducible(t *testing.T) {
	dir := os.Getenv("PHOTOCTL_GEO_CACHE")
	if dir == "" {
		dir = "../../../../.cache/geo"
	}
	in := filepath.Join(dir, "cities.pbf")
	pbf, err := os.ReadFile(in)
	if err != nil {
		t.Skipf("no %s: run scripts/fetch-geodata", in)
	}
	sums, err := os.ReadFile("cities.sha256")
	require.NoError(t, err)
	sum := sha256.Sum256(pbf)
	require.Contains(t, string(sums), hex.EncodeToString(sum[:])+"  cities.pbf", "the checked-in sum")

	gz, st, err := build(in, "../../places.idx.gz")
	require.NoError(t, err)
	committed, err := os.ReadFile("../../towns.idx.gz")
	require.NoError(t, err)
	require.True(t, string(gz) == string(committed), "towns.idx.gz is stale: go generate ./ingest/geocode")
	require.Equal(t, 135_233, st.cities)
	require.Equal(t, 130_377, st.towns)
}

func TestReadCitiesRejectsDamage(t *testing.T) {
	_, err := readCities(nil)
	require.ErrorContains(t, err, "no records")
	_, err = readCities([]byte{0x05, 0x12, 0x01})
	require.Error(t, err)
	// One record: id 7, name "X", country "FR", no position.
	_, err = readCities([]byte{0x07, 0x08, 0x0e, 0x12, 0x01, 'X', 0x1a, 0x02})
	require.Error(t, err)
	ok := []byte{0x12, 0x01, 'X', 0x50, 0x02, 0x58, 0x04} // name X, lon +1, lat +2 (zig-zag)
	cities, err := readCities(append([]byte{byte(len(ok))}, ok...))
	require.NoError(t, err)
	require.Equal(t, []city{{name: "X", lon: 1, lat: 2, hasLat: true, hasLon: true}}, cities)
}
