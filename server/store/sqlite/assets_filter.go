package sqlite

import (
	"fmt"
	"strings"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// maxOffset bounds how far a capture instant can be from its wall reading
// (UTC-12 .. UTC+14), so an instant window becomes a wall window that the
// timeline index can scan.
const maxOffset = 14 * time.Hour

// The asset list is sqlstore's (sqlstore/assets_list.go), with its
// location plan from here (assets_geo_plan.go). These conditions stay for
// the counts and clusters (assets_counts.go) and the search, until they
// move there too.

// assetConditions turns a filter into SQL conditions over "assets a", in
// the order that lets the timeline index (library_id, live, capture_wall)
// serve them. A location is tested row by row when dense, else through the
// spatial index (lists choose per query instead: planLocation).
func assetConditions(f store.AssetFilter, dense bool) ([]string, []any) {
	where := []string{"a.library_id = ?"}
	args := []any{f.LibraryID}
	switch f.State {
	case store.StateTrashed:
		where = append(where, "a.live = 0")
	case store.StateAll:
		where = append(where, "a.live IN (0, 1)")
	default:
		where = append(where, "a.live = 1")
	}
	if f.StackID != "" {
		where, args = append(where, "a.stack_id = ?"), append(args, f.StackID)
	} else if f.AlbumID == "" && !f.WithStacked {
		where = append(where, "a.stack_cover = 1")
	}
	if len(f.IDs) > 0 {
		where = append(where, "a.id IN ("+placeholders(len(f.IDs))+")")
		args = append(args, anySlice(f.IDs)...)
	}
	if f.MediaType != "" {
		where, args = append(where, "a.media_type = ?"), append(args, string(f.MediaType))
	}
	if f.MinRating != nil {
		where, args = append(where, "a.rating >= ?"), append(args, *f.MinRating)
	}
	if len(f.PersonIDs) > 0 {
		w, a := personAssetConditions(f.PersonIDs)
		where, args = append(where, w...), append(args, a...)
	}
	w, a := captureConditions(f.Capture)
	where, args = append(where, w...), append(args, a...)
	w, a = locationConditions(f.Location, dense)
	return append(where, w...), append(args, a...)
}

// captureConditions follows catalog.CaptureRange's contract: offsetless
// bounds compare the wall reading; offset-aware bounds compare the instant
// (the wall reading for assets without a known offset), with a widened wall
// window in front so the timeline index bounds the scan.
func captureConditions(r catalog.CaptureRange) ([]string, []any) {
	where, args := wallConditions("a.capture_wall", r)
	for _, b := range []struct {
		t  *catalog.TimeBound
		op string
	}{{r.After, ">="}, {r.Before, "<"}} {
		if b.t != nil && b.t.HasOffset {
			where, args = append(where, "a.capture_instant "+b.op+" ?"), append(args, b.t.Micros())
		}
	}
	return where, args
}

// wallConditions bounds the wall-reading column col by r: exactly for
// offsetless bounds, widened by maxOffset for offset-aware ones (whose
// instant captureConditions tests). A link table's copy of capture_wall
// takes them too, so its timeline index scans only the window.
func wallConditions(col string, r catalog.CaptureRange) ([]string, []any) {
	var where []string
	var args []any
	bound := func(b *catalog.TimeBound, op string, widen time.Duration) {
		if b == nil {
			return
		}
		v := b.Micros()
		if b.HasOffset {
			v += widen.Microseconds()
		}
		where, args = append(where, col+" "+op+" ?"), append(args, v)
	}
	bound(r.After, ">=", -maxOffset)
	bound(r.Before, "<", maxOffset)
	return where, args
}

// locationConditions selects assets through the R*Tree, or, when dense,
// by their coordinate columns; a circle is pre-filtered by its bounding
// boxes and tested exactly with geo_distance.
func locationConditions(l *catalog.Location, dense bool) ([]string, []any) {
	if l == nil {
		return nil, nil
	}
	var where []string
	var args []any
	if dense {
		ors, boxArgs := geoBoxes(l, "a.longitude", "a.longitude", "a.latitude", "a.latitude")
		where, args = []string{"(" + ors + ")"}, boxArgs
	} else {
		ors, boxArgs := geoBoxes(l, "min_lon", "max_lon", "min_lat", "max_lat")
		where, args = []string{"a.seq IN (SELECT seq FROM assets_geo WHERE " + ors + ")"}, boxArgs
	}
	if l.Circle != nil {
		w, a := circleCondition(l.Circle)
		where, args = append(where, w), append(args, a...)
	}
	return where, args
}

// circleCondition is the exact great-circle test of a circle.
func circleCondition(c *catalog.Circle) (string, []any) {
	return "geo_distance(a.longitude, a.latitude, ?, ?) <= ?", []any{c.Lon, c.Lat, c.RadiusM}
}

// geoBoxes is the OR of a location's boxes (split at the antimeridian) over
// the named columns.
func geoBoxes(l *catalog.Location, minLon, maxLon, minLat, maxLat string) (string, []any) {
	var ors []string
	var args []any
	for _, b := range locationBoxes(l) {
		for _, lr := range b.LonRanges() {
			ors = append(ors, fmt.Sprintf("(%s >= ? AND %s <= ? AND %s >= ? AND %s <= ?)", minLon, maxLon, minLat, maxLat))
			args = append(args, lr[0], lr[1], b.MinLat, b.MaxLat)
		}
	}
	return strings.Join(ors, " OR "), args
}
