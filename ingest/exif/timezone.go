package exif

import (
	"fmt"
	"maps"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	_ "time/tzdata" // time.LoadLocation must work on hosts without /usr/share/zoneinfo

	"github.com/ringsaturn/tzf"
	tzfrellite "github.com/ringsaturn/tzf-rel-lite"
	tzfpb "github.com/ringsaturn/tzf/gen/go/tzf/v1"
	"google.golang.org/protobuf/proto"
)

// The time zone of a coordinate comes from tzf's data embedded in the binary
// (timezone-boundary-builder with oceans, 2025b, ODbL; no network), read
// lazily in steps because polygons are expensive: measured on a 2-CPU host,
// the tile index takes 0.45 s and keeps 9 MiB; building every zone's
// polygons takes 3 to 5 s, leaves 376 MiB of garbage and keeps 28 MiB
// (tzf.NewDefaultFinder loads both up front).
//
//   - The tile index (zoom 13, tiles of 0.044°) answers every point well
//     inside a zone.
//   - A point it cannot answer, near a border or a coast, is looked up in
//     the polygons of the zones the index finds around it (within 0.5°),
//     built for those few zones only: milliseconds, cached by zone set.
//     Zones do not overlap, so a point inside one of them is in that zone.
//   - Only a point in none of them loads every polygon.
//
// All are loaded once per process and never released.
var (
	tileFinder = sync.OnceValues(func() (tzf.F, error) {
		var idx tzfpb.PreindexTimezones
		if err := proto.Unmarshal(tzfrellite.PreindexData, &idx); err != nil {
			return nil, fmt.Errorf("load time zone tiles: %w", err)
		}
		return tzf.NewFuzzyFinderFromPB(&idx)
	})
	// compressedZones is every zone's polygons as shipped, compressed
	// (4.6 MB; 0.15 s to read).
	compressedZones = sync.OnceValues(func() (*tzfpb.CompressedTimezones, error) {
		var zones tzfpb.CompressedTimezones
		if err := proto.Unmarshal(tzfrellite.LiteCompressData, &zones); err != nil {
			return nil, fmt.Errorf("load time zone polygons: %w", err)
		}
		return &zones, nil
	})
	polygonFinder = sync.OnceValues(func() (tzf.F, error) {
		zones, err := compressedZones()
		if err != nil {
			return nil, err
		}
		// Building leaves a few hundred MiB of garbage behind: hand it
		// back to the system at once rather than at the collector's pace.
		defer debug.FreeOSMemory()
		return tzf.NewFinderFromCompressed(zones, tzf.SetDropPBTZ)
	})
	// nearbyFinders caches, by sorted zone names, finders built from a few
	// zones' polygons; at most maxNearbyFinders are kept.
	nearbyFinders   sync.Map
	nearbyFinderCnt atomic.Int64
)

const maxNearbyFinders = 256

// LoadTimeZones loads the time zone tile index and the zones' compressed
// polygons now rather than for the first photos with a position and no
// offset (about 0.6 s of one core; 9 MiB and the polygons' 4.6 MB kept), so
// that a process about to run ingest tasks can pay it before they come.
// The polygons are read for the first point near a border or a coast, which
// most libraries hold. It is safe to call more than once and from many
// goroutines.
func LoadTimeZones() error {
	_, err := tileFinder()
	if err == nil {
		_, err = compressedZones()
	}
	return err
}

// nearbySteps are the distances, in degrees, at which nearbyZone asks the
// tile index around a point.
var nearbySteps = []float64{0.05, 0.1, 0.2, 0.5}

// zoneAt returns the IANA time zone at a coordinate ("Etc/GMT-9" style
// zones at sea), or nil when none is found or the data cannot be loaded.
func zoneAt(lat, lon float64) *time.Location {
	name := ""
	if f, err := tileFinder(); err == nil {
		if name = f.GetTimezoneName(lon, lat); name == "" {
			name = nearbyZone(f, lat, lon)
		}
	}
	if name == "" {
		if f, err := polygonFinder(); err == nil {
			// GetTimezoneNames uses the R-tree and sorts its answers, so the
			// first is what GetTimezoneName's linear scan would return.
			if names, err := f.GetTimezoneNames(lon, lat); err == nil && len(names) > 0 {
				name = names[0]
			}
		}
	}
	if name == "" {
		return nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil
	}
	return loc
}

// nearbyZone looks a point up in the polygons of the zones the tile index
// finds around it; "" when it lies in none of them.
func nearbyZone(tiles tzf.F, lat, lon float64) string {
	around := map[string]bool{}
	for _, d := range nearbySteps {
		for _, dx := range []float64{-d, 0, d} {
			for _, dy := range []float64{-d, 0, d} {
				if n := tiles.GetTimezoneName(lon+dx, lat+dy); n != "" {
					around[n] = true
				}
			}
		}
	}
	if len(around) == 0 {
		return ""
	}
	names := slices.Sorted(maps.Keys(around))
	key := strings.Join(names, ",")
	f, ok := nearbyFinders.Load(key)
	if !ok {
		zones, err := compressedZones()
		if err != nil {
			return ""
		}
		some := &tzfpb.CompressedTimezones{Method: zones.Method, Version: zones.Version}
		for _, z := range zones.Timezones {
			if around[z.Name] {
				some.Timezones = append(some.Timezones, z)
			}
		}
		built, err := tzf.NewFinderFromCompressed(some, tzf.SetDropPBTZ)
		if err != nil {
			return ""
		}
		if nearbyFinderCnt.Add(1) <= maxNearbyFinders {
			nearbyFinders.Store(key, built)
		}
		f = built
	}
	if found, err := f.(tzf.F).GetTimezoneNames(lon, lat); err == nil && len(found) > 0 {
		return found[0]
	}
	return ""
}

// offsetAt is the UTC offset in seconds of loc at a wall-clock reading (the
// fields of wall, whose location is ignored). A reading in a DST gap or
// overlap gets the offset time.Date picks.
func offsetAt(loc *time.Location, wall time.Time) int {
	y, mo, d := wall.Date()
	h, mi, s := wall.Clock()
	_, off := time.Date(y, mo, d, h, mi, s, wall.Nanosecond(), loc).Zone()
	return off
}

// ZoneAt returns the IANA time zone at a position in decimal degrees, or nil
// when none is known there. It is the zone Read uses for GPS-derived
// offsets, for callers that have a position from elsewhere (ffprobe).
func ZoneAt(lat, lon float64) *time.Location { return zoneAt(lat, lon) }
