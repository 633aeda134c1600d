package exif

import (
	"fmt"
	"sync"
	"time"
	_ "time/tzdata" // time.LoadLocation must work on hosts without /usr/share/zoneinfo

	"github.com/ringsaturn/tzf"
	tzfrellite "github.com/ringsaturn/tzf-rel-lite"
	tzfpb "github.com/ringsaturn/tzf/gen/go/tzf/v1"
	"google.golang.org/protobuf/proto"
)

// The time zone of a coordinate comes from tzf's data embedded in the binary
// (timezone-boundary-builder with oceans, 2025b, ODbL; no network). It is
// loaded in two lazy steps because the polygons are expensive: measured on
// a 2-CPU host, the tile index takes 0.45 s and keeps 9 MiB, the polygon
// finder 3 s, 376 MiB of garbage and 28 MiB kept (tzf.NewDefaultFinder loads
// both up front). The tile index answers every point well inside a zone; the
// polygons are loaded only for the first point near a border. Both are
// loaded once per process and never released.
var (
	tileFinder = sync.OnceValues(func() (tzf.F, error) {
		var idx tzfpb.PreindexTimezones
		if err := proto.Unmarshal(tzfrellite.PreindexData, &idx); err != nil {
			return nil, fmt.Errorf("load time zone tiles: %w", err)
		}
		return tzf.NewFuzzyFinderFromPB(&idx)
	})
	polygonFinder = sync.OnceValues(func() (tzf.F, error) {
		var zones tzfpb.CompressedTimezones
		if err := proto.Unmarshal(tzfrellite.LiteCompressData, &zones); err != nil {
			return nil, fmt.Errorf("load time zone polygons: %w", err)
		}
		return tzf.NewFinderFromCompressed(&zones, tzf.SetDropPBTZ)
	})
)

// zoneAt returns the IANA time zone at a coordinate ("Etc/GMT-9" style
// zones at sea), or nil when none is found or the data cannot be loaded.
func zoneAt(lat, lon float64) *time.Location {
	name := ""
	if f, err := tileFinder(); err == nil {
		name = f.GetTimezoneName(lon, lat)
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

// offsetAt is the UTC offset in seconds of loc at a wall-clock reading (the
// fields of wall, whose location is ignored). A reading in a DST gap or
// overlap gets the offset time.Date picks.
func offsetAt(loc *time.Location, wall time.Time) int {
	y, mo, d := wall.Date()
	h, mi, s := wall.Clock()
	_, off := time.Date(y, mo, d, h, mi, s, wall.Nanosecond(), loc).Zone()
	return off
}
