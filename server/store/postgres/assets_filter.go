package postgres

import (
	"strings"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// maxOffset bounds how far a capture instant can be from its wall reading
// (UTC-12 .. UTC+14), so an instant window becomes a wall window that the
// timeline index can scan.
const maxOffset = 14 * time.Hour

// assetConditions turns a filter into SQL conditions over "assets a" (?
// placeholders, args in order), in the order that lets the timeline index
// (library_id, live, capture_wall, id) serve them. Counts, clusters and
// search share it (the asset list's is sqlstore's, with the location from
// locationConditions: planLocation). AlbumID is not tested here: callers
// add their own condition.
//
// A location is tested exactly on the coordinate columns. Unless dense,
// each box also carries the GiST test point(longitude, latitude) <@ box
// (index assets_geo), which PostgreSQL then prefers whatever the box (it
// prices <@ at a fixed 0.1% of the rows): pass dense=false only when the
// box holds few assets (fewGeoMatches) or every match is read anyway; with
// dense (many matches, or another index drives the query) only the columns
// are tested and the timeline index serves the query.
func assetConditions(f store.AssetFilter, dense bool) ([]string, []any) {
	where := []string{"a.library_id = ?", liveCondition("a.live", f.State)}
	args := []any{f.LibraryID}
	if f.StackID != "" {
		where, args = append(where, "a.stack_id = ?"), append(args, f.StackID)
	} else if f.AlbumID == "" && !f.WithStacked {
		where = append(where, "a.stack_cover = 1")
	}
	if len(f.IDs) > 0 {
		where, args = append(where, "a.id = ANY(?::text[])"), append(args, f.IDs)
	}
	if f.MediaType != "" {
		where, args = append(where, "a.media_type = ?"), append(args, string(f.MediaType))
	}
	if f.MinRating != nil {
		where, args = append(where, "a.rating >= ?"), append(args, *f.MinRating)
	}
	if len(f.PersonIDs) > 0 {
		w, a := assetPersonConditions(f.PersonIDs)
		where, args = append(where, w...), append(args, a...)
	}
	w, a := captureConditions(f.Capture)
	where, args = append(where, w...), append(args, a...)
	w, a = locationConditions(f.Location, dense)
	return append(where, w...), append(args, a...)
}

// liveCondition selects a state on a live column (assets.live or a link
// table's copy of it).
func liveCondition(col string, s store.AssetState) string {
	switch s {
	case store.StateTrashed:
		return col + " = 0"
	case store.StateAll:
		return col + " IN (0, 1)"
	}
	return col + " = 1"
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

// locationConditions selects the assets of a location: any of its boxes
// (split at the antimeridian) tested on the coordinate columns, with the
// GiST test in front unless dense; a circle is then tested exactly with
// geo_distance (0005_assets), catalog.DistanceMeters in SQL.
func locationConditions(l *catalog.Location, dense bool) ([]string, []any) {
	if l == nil {
		return nil, nil
	}
	ors, args := geoBoxes(l, dense)
	where := []string{"a.latitude IS NOT NULL", "a.longitude IS NOT NULL", "(" + ors + ")"}
	if l.Circle != nil {
		w, a := circleCondition(l.Circle)
		where, args = append(where, w), append(args, a...)
	}
	return where, args
}

// circleCondition is the exact great-circle test of a circle.
func circleCondition(c *catalog.Circle) (string, []any) {
	return "geo_distance(a.longitude, a.latitude, ?::float8, ?::float8) <= ?::float8", []any{c.Lon, c.Lat, c.RadiusM}
}

// geoBoxes is the OR of a location's boxes (split at the antimeridian),
// edges included. The geometric <@ compares with a tolerance of 1e-6, so
// the columns are always tested too: the GiST test only finds candidates.
func geoBoxes(l *catalog.Location, dense bool) (string, []any) {
	var ors []string
	var args []any
	for _, b := range locationBoxes(l) {
		for _, lr := range b.LonRanges() {
			exact := "a.longitude >= ?::float8 AND a.longitude <= ?::float8 AND a.latitude >= ?::float8 AND a.latitude <= ?::float8"
			if dense {
				ors, args = append(ors, "("+exact+")"), append(args, lr[0], lr[1], b.MinLat, b.MaxLat)
				continue
			}
			ors = append(ors, "(point(a.longitude, a.latitude) <@ box(point(?::float8, ?::float8), point(?::float8, ?::float8)) AND "+exact+")")
			args = append(args, lr[0], b.MinLat, lr[1], b.MaxLat, lr[0], lr[1], b.MinLat, b.MaxLat)
		}
	}
	return strings.Join(ors, " OR "), args
}

// locationBoxes are the boxes that bound a location: its box, or a
// circle's bounding boxes.
func locationBoxes(l *catalog.Location) []catalog.BBox {
	if l.Box != nil {
		return []catalog.BBox{*l.Box}
	}
	return l.Circle.Bounds()
}

// assetPersonConditions keeps the assets of "assets a" holding a face of
// every one of the people (decisions.md: person_ids means all of them).
func assetPersonConditions(personIDs []string) ([]string, []any) {
	where := make([]string, len(personIDs))
	args := make([]any, len(personIDs))
	for i, id := range personIDs {
		where[i] = "EXISTS (SELECT 1 FROM person_assets pa WHERE pa.person_id = ? AND pa.asset_id = a.id)"
		args[i] = id
	}
	return where, args
}
