package sqlite

import (
	"context"
	"database/sql"
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

func (s assets) List(ctx context.Context, f store.AssetFilter, p store.Page) ([]catalog.Asset, bool, error) {
	q := listQuery{cols: assetCols, from: "assets a", sort: "a.capture_wall", idCol: "a.id", desc: !f.Asc}
	q.where, q.args = assetConditions(f)
	return page(ctx, s.q, q, p, func(rows *sql.Rows) (catalog.Asset, error) {
		a, err := scanAsset(rows)
		if err != nil {
			return catalog.Asset{}, err
		}
		return *a, nil
	})
}

// assetConditions turns a filter into SQL conditions over "assets a", in
// the order that lets the timeline index (library_id, live, capture_wall)
// serve them.
func assetConditions(f store.AssetFilter) ([]string, []any) {
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
	} else {
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
	w, a := captureConditions(f.Capture)
	where, args = append(where, w...), append(args, a...)
	w, a = locationConditions(f.Location)
	return append(where, w...), append(args, a...)
}

// captureConditions follows catalog.CaptureRange's contract: offsetless
// bounds compare the wall reading; offset-aware bounds compare the instant
// (the wall reading for assets without a known offset), with a widened wall
// window in front so the timeline index bounds the scan.
func captureConditions(r catalog.CaptureRange) ([]string, []any) {
	var where []string
	var args []any
	bound := func(b *catalog.TimeBound, op string, widen time.Duration) {
		if b == nil {
			return
		}
		if !b.HasOffset {
			where, args = append(where, "a.capture_wall "+op+" ?"), append(args, b.Micros())
			return
		}
		where = append(where, "a.capture_wall "+op+" ?", "a.capture_instant "+op+" ?")
		args = append(args, b.Micros()+widen.Microseconds(), b.Micros())
	}
	bound(r.After, ">=", -maxOffset)
	bound(r.Before, "<", maxOffset)
	return where, args
}

// locationConditions selects assets through the R*Tree; a circle is
// pre-filtered by its bounding boxes and tested exactly with geo_distance.
func locationConditions(l *catalog.Location) ([]string, []any) {
	if l == nil {
		return nil, nil
	}
	var boxes []catalog.BBox
	if l.Box != nil {
		boxes = []catalog.BBox{*l.Box}
	} else {
		boxes = l.Circle.Bounds()
	}
	var ors []string
	var args []any
	for _, b := range boxes {
		for _, lr := range b.LonRanges() {
			ors = append(ors, "(min_lon >= ? AND max_lon <= ? AND min_lat >= ? AND max_lat <= ?)")
			args = append(args, lr[0], lr[1], b.MinLat, b.MaxLat)
		}
	}
	where := []string{fmt.Sprintf("a.seq IN (SELECT seq FROM assets_geo WHERE %s)", strings.Join(ors, " OR "))}
	if l.Circle != nil {
		where = append(where, "geo_distance(a.longitude, a.latitude, ?, ?) <= ?")
		args = append(args, l.Circle.Lon, l.Circle.Lat, l.Circle.RadiusM)
	}
	return where, args
}
