package postgres

import (
	"context"
	"fmt"
	"strings"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store/geogrid"
	"github.com/photoctl/photoctl/server/store/sqlstore"
)

// planLocation is PostgreSQL's AssetGeo (sqlstore.GeoPlan). A list that
// another index drives (driven: a stack, an album, a person) tests each
// row's position on the columns: those rows are few. Otherwise the
// timeline index serves the page, testing each row's position, unless the
// location has few matches (fewGeoMatches): those are found through the
// spatial index, and sorted. A dense location of one state reads a page
// from each of its cells (geoCells, through assets_geo_timeline: 0011),
// merged; a list of both states, which merges a page of each state
// (MergeStates), walks the timeline.
func planLocation(ctx context.Context, c sqlstore.Conn, f query.AssetFilter, driven bool) (sqlstore.GeoPlan, error) {
	dense := driven
	var cells []int64
	if !dense {
		few, err := fewGeoMatches(ctx, c, f)
		if err != nil {
			return sqlstore.GeoPlan{}, err
		}
		dense = !few
		// geo_cells counts stack covers only, so it cannot tell which cells
		// hold the members of a list with every member: that one reads
		// every cell its location spans (and fewGeoMatches' bound, from
		// the covers, is low for it by the members).
		switch {
		case !dense || f.State == query.StateAll:
		case f.WithStacked:
			cells = geogrid.DegreeCells(f.Location, maxGeoCells)
		default:
			if cells, err = nonEmptyCells(ctx, c, f); err != nil {
				return sqlstore.GeoPlan{}, err
			}
		}
	}
	// The location is a condition of the filter (FilterConditions' last).
	g := sqlstore.GeoPlan{Dense: dense}
	g.Where, g.Args = locationConditions(f.Location, dense)
	if len(cells) > 0 {
		g.BranchCond = "asset_geo_cell(a.longitude, a.latitude) = ?"
		for _, cell := range cells {
			g.Branches = append(g.Branches, cell)
		}
	}
	return g, nil
}

// geoIndexMatches is how many matches of a location the spatial index
// plan takes on: each costs a row lookup and a sort slot, so past a
// thousand a page from each of the box's cells (geoCells) is cheaper (at
// 1M assets, 1° boxes: p99 21 ms with 5,000 here, 13 ms with 1,000). A
// variable for the plan tests, which use a smaller library.
var geoIndexMatches = 1000

// geoLevelUnits are the cell sizes of geo_cells (0006_aggregates), in
// 1e-7 degree, finest first; maxBoundCells is how many cells of a level a
// location may span for fewGeoMatches to read that level.
var geoLevelUnits = []int64{100000, 1000000, 10000000}

const maxBoundCells = 1024

// fewGeoMatches reports whether f's location holds at most geoIndexMatches
// assets of f's library and state. PostgreSQL cannot tell by itself: it
// prices every "point <@ box" at a fixed selectivity of 0.1%, so left
// alone it takes the spatial index for the whole world too, and sorts every
// located asset for one page. With more matches than that, the box is
// dense enough for the timeline walk (locationConditions with dense) to fill a
// page soon.
//
// The matches are bounded from above by the counts of the geo_cells cells
// that overlap the location, at the finest level where it spans at most
// maxBoundCells cells (1° at most): at most geoIndexMatches+1 index
// entries, whatever the library's size; the bound exceeds the matches only
// by the edge cells' assets outside the location. geo_cells counts the
// assets collapsed lists show (stack covers), which is what the lists
// that come here read, but for WithStacked.
func fewGeoMatches(ctx context.Context, c sqlstore.Conn, f query.AssetFilter) (bool, error) {
	boxes := geogrid.LocationBoxes(f.Location)
	units := geoLevelUnits[len(geoLevelUnits)-1]
	for _, u := range geoLevelUnits {
		if spannedCells(boxes, u) <= maxBoundCells {
			units = u
			break
		}
	}
	var cells []string
	args := []any{f.LibraryID, units}
	for _, b := range boxes {
		for _, lr := range b.LonRanges() {
			cells = append(cells, "(cx BETWEEN asset_geo_x(?::float8) / ? AND asset_geo_x(?::float8) / ?"+
				" AND cy BETWEEN asset_geo_y(?::float8) / ? AND asset_geo_y(?::float8) / ?)")
			args = append(args, lr[0], units, lr[1], units, b.MinLat, units, b.MaxLat, units)
		}
	}
	// Every non-empty cell counts at least one asset: past geoIndexMatches
	// cells the bound is too high already, so no more are read.
	var bound int64
	err := c.QueryRow(ctx, "SELECT coalesce(sum(count), 0) FROM (SELECT count FROM geo_cells WHERE library_id = ? AND "+
		sqlstore.LiveCondition("live", f.State)+" AND units = ? AND ("+strings.Join(cells, " OR ")+") LIMIT ?) c",
		append(args, geoIndexMatches+1)...).Scan(&bound)
	if err != nil {
		return false, fmt.Errorf("bound the assets of a location: %w", translate(err))
	}
	return bound <= int64(geoIndexMatches), nil
}

// maxGeoCells is how many non-empty 1° cells the geoCells plan takes on:
// it reads up to a page from each (a dense city's cell holds tens of
// thousands of entries, a page a hundred) in one branch of the statement
// each. A box over more cells is a region holding a large share of the
// library (at 1M assets western Europe spans 57 non-empty cells and 21% of
// the photos), whose page the timeline walk finds sooner.
const maxGeoCells = 32

// nonEmptyCells returns the 1° cells (numbered as asset_geo_cell) that
// overlap f's location and hold stack covers of f's library and state, or
// nil when there are none or more than maxGeoCells of them.
func nonEmptyCells(ctx context.Context, c sqlstore.Conn, f query.AssetFilter) ([]int64, error) {
	const units = 10000000
	var ors []string
	args := []any{f.LibraryID, units}
	for _, b := range geogrid.LocationBoxes(f.Location) {
		for _, lr := range b.LonRanges() {
			ors = append(ors, "(cx BETWEEN asset_geo_x(?::float8) / ? AND asset_geo_x(?::float8) / ?"+
				" AND cy BETWEEN asset_geo_y(?::float8) / ? AND asset_geo_y(?::float8) / ?)")
			args = append(args, lr[0], units, lr[1], units, b.MinLat, units, b.MaxLat, units)
		}
	}
	rows, err := c.Query(ctx, "SELECT DISTINCT cy * 361 + cx FROM geo_cells WHERE library_id = ? AND "+
		sqlstore.LiveCondition("live", f.State)+" AND units = ? AND ("+strings.Join(ors, " OR ")+") LIMIT ?",
		append(args, maxGeoCells+1)...)
	if err != nil {
		return nil, fmt.Errorf("find the cells of a location: %w", translate(err))
	}
	defer rows.Close()
	var cells []int64
	for rows.Next() {
		var c int64
		if err := rows.Scan(&c); err != nil {
			return nil, err
		}
		cells = append(cells, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("find the cells of a location: %w", translate(err))
	}
	if len(cells) > maxGeoCells {
		return nil, nil
	}
	return cells, nil
}

// spannedCells is how many cells units wide the boxes span (as the cell
// conditions of fewGeoMatches select them).
func spannedCells(boxes []catalog.BBox, units int64) int64 {
	cell := func(deg, offset float64) int64 { return int64((deg+offset)*1e7+0.5) / units }
	var n int64
	for _, b := range boxes {
		for _, lr := range b.LonRanges() {
			n += (cell(lr[1], 180) - cell(lr[0], 180) + 1) * (cell(b.MaxLat, 90) - cell(b.MinLat, 90) + 1)
		}
	}
	return n
}

// locationConditions is the dialect's Location, for counts, clusters
// and search (the asset list's location is planLocation's).
//
// A location is tested exactly on the coordinate columns (any of its
// boxes, split at the antimeridian; a circle then exactly). Unless dense,
// each box also carries the GiST test point(longitude, latitude) <@ box
// (index assets_geo), which PostgreSQL then prefers whatever the box (it
// prices <@ at a fixed 0.1% of the rows): pass dense=false only when the
// box holds few assets (fewGeoMatches) or every match is read anyway; with
// dense (many matches, or another index drives the query) only the columns
// are tested and the timeline index serves the query.
func locationConditions(l *catalog.Location, dense bool) ([]string, []any) {
	ors, args := sqlstore.GeoBoxes(l, func(b catalog.BBox) (string, []any) {
		if dense {
			return columnsBox, boxArgs(b)
		}
		return gistBox(b, b)
	})
	return sqlstore.WithCircle(l, floatArg, []string{"a.latitude IS NOT NULL", "a.longitude IS NOT NULL", "(" + ors + ")"}, args)
}

// columnsBox tests a box, edges included, on the coordinate columns of
// "assets a" (arguments: boxArgs).
const columnsBox = "a.longitude >= ?::float8 AND a.longitude <= ?::float8 AND a.latitude >= ?::float8 AND a.latitude <= ?::float8"

// boxArgs are the arguments of columnsBox.
func boxArgs(b catalog.BBox) []any { return []any{b.MinLon, b.MaxLon, b.MinLat, b.MaxLat} }

// gistBox finds the assets of box through the spatial index assets_geo,
// searching part of it: the geometric <@ compares with a tolerance of
// 1e-6, so the index only finds candidates and box is tested exactly on
// the columns too.
func gistBox(part, box catalog.BBox) (string, []any) {
	return "point(a.longitude, a.latitude) <@ box(point(?::float8, ?::float8), point(?::float8, ?::float8)) AND " + columnsBox,
		append([]any{part.MinLon, part.MinLat, part.MaxLon, part.MaxLat}, boxArgs(box)...)
}
