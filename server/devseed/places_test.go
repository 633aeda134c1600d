package devseed

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestDevPhotosNearTheAntimeridianFallOnBothSides(t *testing.T) {
	var taveuni place
	for _, p := range places {
		if p.name == "Taveuni" {
			taveuni = p
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	west, east := 0, 0
	for range 2000 {
		lat, lon := taveuni.near(r)
		require.GreaterOrEqual(t, lon, -180.0)
		require.Less(t, lon, 180.0)
		require.InDelta(t, taveuni.lat, lat, 2)
		switch {
		case lon > 179:
			west++
		case lon < -179:
			east++
		default:
			t.Fatalf("a point %v° from Taveuni", lon-taveuni.lon)
		}
	}
	require.Greater(t, west, 200)
	require.Greater(t, east, 200)
}

func TestDevOffsetsFollowDaylightSavingTime(t *testing.T) {
	july := time.Date(2024, 7, 1, 12, 0, 0, 0, time.UTC)
	january := time.Date(2024, 1, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		place         string
		july, january int
	}{
		{"Paris", 2 * 3600, 3600},
		{"New York", -4 * 3600, -5 * 3600},
		{"Sydney", 10 * 3600, 11 * 3600},
		{"Tokyo", 9 * 3600, 9 * 3600},
		{"Kathmandu", 5*3600 + 45*60, 5*3600 + 45*60},
	}
	for _, tt := range tests {
		for _, p := range places {
			if p.name == tt.place {
				require.Equal(t, tt.july, p.offsetAt(july), tt.place)
				require.Equal(t, tt.january, p.offsetAt(january), tt.place)
			}
		}
	}
}
