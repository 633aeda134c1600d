package exif

import (
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestZoneAt(t *testing.T) {
	cases := []struct {
		name     string
		lat, lon float64
		zone     string
	}{
		{"Paris", 48.8584, 2.2945, "Europe/Paris"},
		{"Tokyo", 35.6895, 139.6917, "Asia/Tokyo"},
		{"Kathmandu, +05:45", 27.7172, 85.3240, "Asia/Kathmandu"},
		{"the mid-Atlantic has a nautical zone", 40, -30, "Etc/GMT+2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			loc := zoneAt(c.lat, c.lon)
			require.NotNil(t, loc)
			require.Equal(t, c.zone, loc.String())
		})
	}
}

// TestZoneAtABorderLoadsThePolygons measures what the tile index cannot
// answer: Basel, a few hundred metres from France and Germany.
func TestZoneAtABorderLoadsThePolygons(t *testing.T) {
	if testing.Short() {
		t.Skip("loading the time zone polygons takes seconds")
	}
	tiles, err := tileFinder()
	require.NoError(t, err)
	require.Empty(t, tiles.GetTimezoneName(7.5886, 47.5596), "the tile index has no answer here")

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	began := time.Now()
	loc := zoneAt(47.5596, 7.5886)
	took := time.Since(began)
	runtime.GC()
	runtime.ReadMemStats(&after)
	t.Logf("first border lookup (loads the polygons): %s, heap kept %+.1f MiB, allocated %.0f MiB",
		took, float64(int64(after.HeapInuse)-int64(before.HeapInuse))/(1<<20),
		float64(after.TotalAlloc-before.TotalAlloc)/(1<<20))
	require.NotNil(t, loc)
	require.Equal(t, "Europe/Zurich", loc.String())
}

func TestOffsetAtFollowsDaylightSaving(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	require.NoError(t, err)
	require.Equal(t, 3600, offsetAt(paris, time.Date(2024, 1, 15, 10, 0, 0, 0, time.UTC)))
	require.Equal(t, 7200, offsetAt(paris, time.Date(2024, 7, 15, 10, 0, 0, 0, time.UTC)))
}

func BenchmarkZoneAt(b *testing.B) {
	_, _ = tileFinder() // loaded once per process; measured in TestZoneAtABorderLoadsThePolygons
	for b.Loop() {
		zoneAt(35.6895, 139.6917)
	}
}
