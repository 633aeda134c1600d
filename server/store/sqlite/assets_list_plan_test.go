package sqlite

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// TestDenseAndIndexedLocationPlansAgree pages through random locations with
// both plans of List (spatial index, and timeline with inline coordinate
// tests) and requires the same pages.
func TestDenseAndIndexedLocationPlansAgree(t *testing.T) {
	f := newAggFixture(t)
	rng := rand.New(rand.NewPCG(7, 11))
	seedRandom(t, f, rng, 600)
	ctx := context.Background()
	saved := denseMatches
	t.Cleanup(func() { denseMatches = saved })

	locations := []*catalog.Location{{Box: &catalog.World}}
	for range 40 {
		lon, lat := rng.Float64()*360-180, rng.Float64()*160-80
		w, h := rng.Float64()*90+1, rng.Float64()*40+1
		maxLon := lon + w
		if maxLon > 180 {
			maxLon -= 360 // crosses the antimeridian
		}
		locations = append(locations, &catalog.Location{Box: &catalog.BBox{MinLon: lon, MinLat: lat,
			MaxLon: maxLon, MaxLat: min(lat+h, 90)}})
		locations = append(locations, &catalog.Location{Circle: &catalog.Circle{Lon: lon, Lat: lat,
			RadiusM: rng.Float64() * 3e6}})
	}
	walk := func(l *catalog.Location) []string {
		var ids []string
		after := ""
		for {
			page, more, err := f.db.Read().Assets().List(ctx, store.AssetFilter{LibraryID: f.lib, Location: l,
				State: store.StateAll}, store.Page{Limit: 7, AfterID: after})
			require.NoError(t, err)
			for _, a := range page {
				ids = append(ids, a.ID)
			}
			if !more {
				return ids
			}
			after = page[len(page)-1].ID
		}
	}
	for i, l := range locations {
		denseMatches = 1 << 30 // always the spatial index
		indexed := walk(l)
		denseMatches = 0 // always the timeline
		dense := walk(l)
		require.Equal(t, indexed, dense, "location %d", i)
	}
}
