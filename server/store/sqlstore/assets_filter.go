package sqlstore

import (
	"strings"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store/geogrid"
)

// maxOffset bounds how far a capture instant can be from its wall reading
// (UTC-12 .. UTC+14), so an instant window becomes a wall window that the
// timeline index can scan.
const maxOffset = 14 * time.Hour

// GeoPlan is how an asset list answers its location filter: the dialect's
// AssetGeo hook chooses it per query, in its own package. The plans
// differ, as the two databases' spatial indexes and planners do: SQLite
// chooses between its R*Tree, the cell index and the timeline by the
// geo_cells counts; PostgreSQL prices its GiST test at a fixed
// selectivity, so it bounds the matches first and tests only the columns
// unless they are few (each dialect's assets_geo_plan.go).
type GeoPlan struct {
	// Where (with Args) tests the location on "assets a". Last puts it
	// after the whole list's conditions (SQLite: a step over the list's
	// query); else it ends the asset conditions, before an album's or a
	// person's timeline bounds (PostgreSQL: part of the filter).
	Where []string
	Args  []any
	Last  bool
	// From, when set, is the list's FROM clause given the one it had:
	// a table the plan reads first may drive it, bound by FromArgs.
	From     func(from string) string
	FromArgs []any
	// LateKey, when set, pages the list late (listQuery.late) by that
	// key, the page's rows read from the FROM clause the list had.
	LateKey string
	// Branches, with BranchCond, page the list late, a page per branch
	// (listQuery.branches).
	Branches   []any
	BranchCond string
	// Dense says the timeline walk tests each row's position: the lists
	// of both states then merge a page of each (MergeStates).
	Dense bool
}

// AssetConditions turns a filter, all but its location (the dialect's
// GeoPlan, or its own conditions for counts, clusters and search) and its
// album (the album's own timeline, or InAlbum), into SQL conditions over
// "assets a", in the order that lets the timeline index (library_id, live,
// capture_wall, id) serve them. in is the dialect's In, passed alone so
// that the dialects' own hooks may call this without referring to their
// Dialect value.
func AssetConditions(in func(col string, ids []string) (string, []any), f query.AssetFilter) ([]string, []any) {
	where := []string{"a.library_id = ?", LiveCondition("a.live", f.State)}
	args := []any{f.LibraryID}
	if f.StackID != "" {
		where, args = append(where, "a.stack_id = ?"), append(args, f.StackID)
	} else if f.AlbumID == "" && !f.WithStacked {
		where = append(where, "a.stack_cover = 1")
	}
	if len(f.IDs) > 0 {
		cond, a := in("a.id", f.IDs)
		where, args = append(where, cond), append(args, a...)
	}
	if f.MediaType != "" {
		where, args = append(where, "a.media_type = ?"), append(args, string(f.MediaType))
	}
	if f.MinRating != nil {
		where, args = append(where, "a.rating >= ?"), append(args, *f.MinRating)
	}
	for _, id := range f.PersonIDs {
		// decisions.md: person_ids means all of them.
		where = append(where, "EXISTS (SELECT 1 FROM person_assets pa WHERE pa.person_id = ? AND pa.asset_id = a.id)")
		args = append(args, id)
	}
	w, a := CaptureConditions(f.Capture)
	return append(where, w...), append(args, a...)
}

// FilterConditions is AssetConditions, then f's location as the
// dialect's location conditions test it (dense: the location holds many
// of the rows read: tested on the coordinate columns rather than through
// the spatial index): the conditions of counts, clusters and search
// (Dialect.Location). in and location are the dialect's In and Location,
// passed alone as AssetConditions' in is.
func FilterConditions(in func(col string, ids []string) (string, []any),
	location func(l *catalog.Location, dense bool) ([]string, []any), f query.AssetFilter, dense bool,
) ([]string, []any) {
	where, args := AssetConditions(in, f)
	if f.Location == nil {
		return where, args
	}
	w, a := location(f.Location, dense)
	return append(where, w...), append(args, a...)
}

// LiveCondition selects a state on a live column (assets.live or a link
// table's copy of it, geo_cells' and asset_day_counts' live).
func LiveCondition(col string, s query.AssetState) string {
	switch s {
	case query.StateTrashed:
		return col + " = 0"
	case query.StateAll:
		return col + " IN (0, 1)"
	}
	return col + " = 1"
}

// CaptureConditions follows catalog.CaptureRange's contract: offsetless
// bounds compare the wall reading; offset-aware bounds compare the instant
// (the wall reading for assets without a known offset), with a widened wall
// window in front so the timeline index bounds the scan.
func CaptureConditions(r catalog.CaptureRange) ([]string, []any) {
	where, args := WallConditions("a.capture_wall", r)
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

// WallConditions bounds the wall-reading column col by r: exactly for
// offsetless bounds, widened by maxOffset for offset-aware ones (whose
// instant CaptureConditions tests). A link table's copy of capture_wall
// takes them too, so its timeline index scans only the window.
func WallConditions(col string, r catalog.CaptureRange) ([]string, []any) {
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

// linkTimeline makes an asset list read the assets of one album or person
// through the link table's timeline index (album_id or person_id, live,
// capture_wall, asset_id): the links drive, in page order, and each asset
// is found by id. q's conditions test the rest of the filter.
func linkTimeline(d *Dialect, q *listQuery, table, alias, keyCol, key string, f query.AssetFilter) {
	q.from = table + " " + alias + " " + d.CrossJoin + " assets a ON a.id = " + alias + ".asset_id"
	q.sort, q.idCol = alias+".capture_wall", alias+".asset_id"
	q.where = append([]string{alias + "." + keyCol + " = ?", LiveCondition(alias+".live", f.State)}, q.where...)
	q.args = append([]any{key}, q.args...)
	w, a := WallConditions(alias+".capture_wall", f.Capture)
	q.where, q.args = append(q.where, w...), append(q.args, a...)
}

// InAlbum adds to conditions over "assets a" the asset's membership of
// album albumID (none for ""), tested on each row through the album's
// (album_id, asset_id) index: the search's way, whose hits drive. As in
// the list, an album shows its stacked members (AssetConditions leaves
// stack_cover out when the filter names an album).
func InAlbum(where []string, args []any, albumID string) ([]string, []any) {
	if albumID == "" {
		return where, args
	}
	return append(where, "EXISTS (SELECT 1 FROM album_assets aa WHERE aa.album_id = ? AND aa.asset_id = a.id)"),
		append(args, albumID)
}

// GeoBoxes is the OR of box's condition on each of a location's boxes,
// split at the antimeridian into longitude ranges (each given as a box of
// its own), with their arguments.
func GeoBoxes(l *catalog.Location, box func(catalog.BBox) (string, []any)) (string, []any) {
	var ors []string
	var args []any
	for _, b := range geogrid.LocationBoxes(l) {
		for _, lr := range b.LonRanges() {
			c, a := box(catalog.BBox{MinLon: lr[0], MaxLon: lr[1], MinLat: b.MinLat, MaxLat: b.MaxLat})
			ors, args = append(ors, "("+c+")"), append(args, a...)
		}
	}
	return strings.Join(ors, " OR "), args
}

// WithCircle adds to conditions over "assets a" the exact great-circle
// test of l's circle, when it has one: geo_distance, as both dialects'
// migrations define it (catalog.DistanceMeters in SQL). float is the
// dialect's FloatArg.
func WithCircle(l *catalog.Location, float string, where []string, args []any) ([]string, []any) {
	c := l.Circle
	if c == nil {
		return where, args
	}
	return append(where, "geo_distance(a.longitude, a.latitude, "+float+", "+float+") <= "+float),
		append(args, c.Lon, c.Lat, c.RadiusM)
}
