package sqlite

import (
	"context"
	"fmt"
	"strings"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store/geogrid"
	"github.com/photoctl/photoctl/server/store/sqlstore"
)

// geoPlan is a way to answer a location filter of a list. No single plan is
// fast for every box: the right one depends on how many assets the box
// holds and how they spread, which the geo_cells aggregate (0003) tells
// before the list runs. Measured at 1M assets (docs/performance.md).
type geoPlan int

const (
	// geoAuto chooses per query (planLocation).
	geoAuto geoPlan = iota
	// geoRTree finds the matches through the R*Tree, then sorts them: cheap
	// while they are few, whatever the area.
	geoRTree
	// geoCells reads the box's non-empty 1° cells from assets_geo_timeline
	// (library, live, cell, capture time): within a cell the entries come in
	// page order, so SQLite's ORDER BY ... LIMIT stops each cell after at
	// most a page of entries, testing the position and stack_cover from the
	// entry; only the page's rows are read (late lookup).
	geoCells
	// geoTimeline walks the timeline index, testing the position from each
	// entry: cheap when a large share of the library lies in the box.
	geoTimeline
)

const (
	// maxGeoCells is how many non-empty 1° cells geoCells takes on; each
	// costs an index seek and up to a page of entries.
	maxGeoCells = 256
	// rtreeMatches is how many matches geoRTree takes on when the box spans
	// more cells than that: each costs a row lookup and a sort slot.
	rtreeMatches = 5000
	// cellUnits is the 1° level of geo_cells, which geo_cell numbers.
	cellUnits = 10000000
)

// forceGeoPlan overrides planLocation; tests use it to compare the plans.
var forceGeoPlan = geoAuto

// planLocation is SQLite's AssetGeo (sqlstore.GeoPlan): the cheapest plan
// of f's location filter. Lists that another index drives (driven: a
// stack, an album, a person) test positions row by row: those rows are
// few. geo_cells counts stack covers only, so it cannot tell which cells
// hold the members of an expanded list (WithStacked): geoCells reads every
// cell the location spans for those, and past maxGeoCells of them the
// covers' count (a lower bound) chooses between the other plans.
func planLocation(ctx context.Context, c sqlstore.Conn, f query.AssetFilter, driven bool) (sqlstore.GeoPlan, error) {
	l := f.Location
	plan := forceGeoPlan
	var cells []int64
	switch {
	case driven:
		plan = geoTimeline
	case plan != geoAuto && plan != geoCells: // a test's choice
	case f.WithStacked:
		if cells = geogrid.DegreeCells(l, maxGeoCells); cells != nil {
			plan = geoCells
			break
		}
		_, covers, err := nonEmptyCells(ctx, c, f.LibraryID, f.State, l)
		if err != nil {
			return sqlstore.GeoPlan{}, err
		}
		plan = geoTimeline
		if forceGeoPlan == geoAuto && covers <= rtreeMatches {
			plan = geoRTree
		}
	default:
		found, matches, err := nonEmptyCells(ctx, c, f.LibraryID, f.State, l)
		if err != nil {
			return sqlstore.GeoPlan{}, err
		}
		cells = found
		if plan == geoAuto {
			switch {
			case len(cells) <= maxGeoCells:
				plan = geoCells
			case matches <= rtreeMatches:
				plan = geoRTree
			default:
				plan = geoTimeline
			}
		}
	}
	// The plan is a step over the list's query: its conditions come last.
	g := sqlstore.GeoPlan{Last: true}
	switch plan {
	case geoRTree:
		ors, args := sqlstore.GeoBoxes(l, rtreeEntry)
		g.From = func(from string) string {
			return "(SELECT seq FROM assets_geo WHERE " + ors + ") g CROSS JOIN " + from + " ON a.seq = g.seq"
		}
		g.FromArgs = args
	case geoCells:
		if len(cells) == 0 {
			cells = []int64{-1} // no cell: an empty page, through the same query
		}
		g.Where = append(g.Where, "a.geo_cell IN ("+placeholders(len(cells))+")")
		g.Args = append(g.Args, anySlice(cells)...)
		g.LateKey = "a.seq"
		g.From = func(string) string { return "assets a INDEXED BY assets_geo_timeline" }
		fallthrough
	default:
		ors, args := sqlstore.GeoBoxes(l, columnsBox)
		g.Where, g.Args = append(g.Where, "("+ors+")"), append(g.Args, args...)
	}
	g.Where, g.Args = sqlstore.WithCircle(l, floatArg, g.Where, g.Args)
	return g, nil
}

// nonEmptyCells returns the geo_cell numbers of the 1° cells that overlap
// l's boxes and hold collapsed-list assets of the library in the state, and
// how many such assets they hold (at least the matches of l).
func nonEmptyCells(ctx context.Context, c sqlstore.Conn, libraryID string, state query.AssetState, l *catalog.Location) ([]int64, int, error) {
	var ors []string
	args := []any{libraryID, cellUnits}
	for _, b := range geogrid.LocationBoxes(l) {
		for _, lr := range b.LonRanges() {
			ors = append(ors, "(cx BETWEEN "+cellOf("?", 180)+" AND "+cellOf("?", 180)+
				" AND cy BETWEEN "+cellOf("?", 90)+" AND "+cellOf("?", 90)+")")
			args = append(args, lr[0], lr[1], b.MinLat, b.MaxLat)
		}
	}
	rows, err := c.Query(ctx, "SELECT cy * 361 + cx, count FROM geo_cells WHERE library_id = ? AND "+
		sqlstore.LiveCondition("live", state)+" AND units = ? AND ("+strings.Join(ors, " OR ")+")", args...)
	if err != nil {
		return nil, 0, fmt.Errorf("find the cells of a location: %w", translate(err))
	}
	defer rows.Close()
	var cells []int64
	seen := map[int64]bool{}
	matches := 0
	for rows.Next() {
		var cell int64
		var n int
		if err := rows.Scan(&cell, &n); err != nil {
			return nil, 0, err
		}
		matches += n
		if !seen[cell] { // once per cell when both states count
			seen[cell] = true
			cells = append(cells, cell)
		}
	}
	return cells, matches, translate(rows.Err())
}

// cellOf is the SQL of the 1° cell index of a coordinate, shifted by offset
// into positive degrees, exactly as geo_cells and assets.geo_cell compute it.
func cellOf(expr string, offset int) string {
	return fmt.Sprintf("CAST((%s + %d) * %d + 0.5 AS INTEGER) / %d", expr, offset, cellUnits, cellUnits)
}

// locationConditions is the dialect's Location: through the R*Tree, or,
// when dense, on the coordinate columns; a circle is pre-filtered by its
// bounding boxes and tested exactly. (Lists choose per query instead:
// planLocation.)
func locationConditions(l *catalog.Location, dense bool) ([]string, []any) {
	if dense {
		ors, args := sqlstore.GeoBoxes(l, columnsBox)
		return sqlstore.WithCircle(l, floatArg, []string{"(" + ors + ")"}, args)
	}
	ors, args := sqlstore.GeoBoxes(l, rtreeEntry)
	return sqlstore.WithCircle(l, floatArg, []string{"a.seq IN (SELECT seq FROM assets_geo WHERE " + ors + ")"}, args)
}

// columnsBox tests a box on the coordinate columns of "assets a".
func columnsBox(b catalog.BBox) (string, []any) {
	return "a.longitude >= ? AND a.longitude <= ? AND a.latitude >= ? AND a.latitude <= ?", boxArgs(b)
}

// rtreeEntry tests a box on an R*Tree entry of assets_geo (rtreeBox).
func rtreeEntry(b catalog.BBox) (string, []any) { return rtreeBox, boxArgs(b) }

// boxArgs are the arguments of columnsBox and rtreeBox.
func boxArgs(b catalog.BBox) []any { return []any{b.MinLon, b.MaxLon, b.MinLat, b.MaxLat} }
