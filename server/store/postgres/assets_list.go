package postgres

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/store/geogrid"
)

// List pages the assets of f by capture wall time, then id. An album or a
// person drives the query through its own timeline (the rarest of several
// people: the others are tested row by row); a stack's members are few.
// Without one of those, the timeline index serves the page, testing each
// row's position; a location with few matches (fewGeoMatches) is found
// through the spatial index instead, and its matches sorted. Live and
// trashed assets together are a merge of both states' pages
// (listBothStates).
func (s assets) List(ctx context.Context, f store.AssetFilter, p store.Page) ([]catalog.Asset, bool, error) {
	q := listQuery{cols: assetCols, from: "assets a", sort: "a.capture_wall", idCol: "a.id", desc: !f.Asc}
	cond := f
	driver := ""
	if f.AlbumID == "" && len(f.PersonIDs) > 0 {
		var err error
		if driver, err = rarestPerson(ctx, s.q, f.PersonIDs); err != nil {
			return nil, false, err
		}
		cond.PersonIDs = withoutID(f.PersonIDs, driver) // its timeline tests it
	}
	dense := f.StackID != "" || f.AlbumID != "" || driver != ""
	var cells []int64
	if f.Location != nil && !dense {
		few, err := fewGeoMatches(ctx, s.q, f)
		if err != nil {
			return nil, false, err
		}
		dense = !few
		// A list of both states (merged below) walks the timeline.
		// geo_cells counts stack covers only, so it cannot tell which cells
		// hold the members of a list with every member: that one reads
		// every cell its location spans (and fewGeoMatches' bound, from
		// the covers, is low for it by the members).
		switch {
		case !dense || f.State == store.StateAll:
		case f.WithStacked:
			cells = boxCells(f.Location)
		default:
			if cells, err = nonEmptyCells(ctx, s.q, f); err != nil {
				return nil, false, err
			}
		}
	}
	q.where, q.args = assetConditions(cond, dense)
	if len(cells) > 0 {
		// geoCells: a page from each of the box's cells through
		// assets_geo_timeline (0011), merged, then the page's rows.
		q.late, q.branchCond = true, "asset_geo_cell(a.longitude, a.latitude) = ?"
		for _, c := range cells {
			q.branches = append(q.branches, c)
		}
	}
	switch {
	case f.AlbumID != "":
		assetAlbumTimeline(&q, f)
	case driver != "":
		assetPersonTimeline(&q, driver, f)
	case f.State == store.StateAll && f.StackID == "" && (f.Location == nil || dense):
		return s.listBothStates(ctx, q, cond, dense, p)
	}
	return page(ctx, s.q, q, p, scanAssetRow)
}

func scanAssetRow(row scanner) (catalog.Asset, error) {
	a, err := scanAsset(row)
	if err != nil {
		return catalog.Asset{}, err
	}
	return *a, nil
}

// listBothStates pages the timeline of live and trashed assets together
// (q is the list with f's conditions for both): a page of each state read
// in index order from the cursor, merged. The timeline index leads with
// the state, so one walk over both states cannot come in page order, and
// PostgreSQL would sort the library's whole timeline for every page.
func (s assets) listBothStates(ctx context.Context, q listQuery, f store.AssetFilter, dense bool, p store.Page) ([]catalog.Asset, bool, error) {
	var wall int64
	if p.AfterID != "" {
		err := s.q.queryRow(ctx, "SELECT a.capture_wall FROM "+q.from+" WHERE "+strings.Join(q.where, " AND ")+
			" AND a.id = ?", append(append([]any(nil), q.args...), p.AfterID)...).Scan(&wall)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil, false, catalog.InvalidField("value_error",
				"starting_after_id does not name an item of this list", p.AfterID, "query", "starting_after_id")
		}
		if err != nil {
			return nil, false, fmt.Errorf("resolve cursor: %w", translate(err))
		}
	}
	var out []catalog.Asset
	more := false
	for _, state := range []store.AssetState{store.StateLive, store.StateTrashed} {
		one := f
		one.State = state
		sq := q
		sq.where, sq.args = assetConditions(one, dense)
		if p.AfterID != "" {
			op := ">"
			if q.desc {
				op = "<"
			}
			sq.where = append(sq.where, "(a.capture_wall, a.id) "+op+" (?, ?)")
			sq.args = append(sq.args, wall, p.AfterID)
		}
		items, m, err := page(ctx, s.q, sq, store.Page{Limit: p.Limit}, scanAssetRow)
		if err != nil {
			return nil, false, err
		}
		out, more = append(out, items...), more || m
	}
	slices.SortFunc(out, func(a, b catalog.Asset) int {
		c := cmp.Or(cmp.Compare(a.Capture.Wall.UnixMicro(), b.Capture.Wall.UnixMicro()), strings.Compare(a.ID, b.ID))
		if q.desc {
			return -c
		}
		return c
	})
	if len(out) > p.Limit {
		out, more = out[:p.Limit], true
	}
	return out, more, nil
}

// rarestPerson returns the one of the people with the fewest faces (an
// unknown id counts none), whose timeline the asset list walks: a person's
// face count bounds its asset count, so the other people, tested row by
// row, reject the fewest rows.
func rarestPerson(ctx context.Context, db conn, personIDs []string) (string, error) {
	if len(personIDs) == 1 {
		return personIDs[0], nil
	}
	rows, err := db.query(ctx, `SELECT id, face_count FROM people WHERE id = ANY(?::text[])`, personIDs)
	if err != nil {
		return "", fmt.Errorf("count the faces of people: %w", translate(err))
	}
	defer rows.Close()
	faces := make(map[string]int64, len(personIDs))
	for rows.Next() {
		var id string
		var n int64
		if err := rows.Scan(&id, &n); err != nil {
			return "", err
		}
		faces[id] = n
	}
	if err := rows.Err(); err != nil {
		return "", fmt.Errorf("count the faces of people: %w", translate(err))
	}
	rarest := personIDs[0]
	for _, id := range personIDs[1:] {
		if faces[id] < faces[rarest] {
			rarest = id
		}
	}
	return rarest, nil
}

// withoutID returns ids less every copy of id.
func withoutID(ids []string, id string) []string {
	out := make([]string, 0, len(ids))
	for _, v := range ids {
		if v != id {
			out = append(out, v)
		}
	}
	return out
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
// dense enough for the timeline walk (assetConditions with dense) to fill a
// page soon.
//
// The matches are bounded from above by the counts of the geo_cells cells
// that overlap the location, at the finest level where it spans at most
// maxBoundCells cells (1° at most): at most geoIndexMatches+1 index
// entries, whatever the library's size; the bound exceeds the matches only
// by the edge cells' assets outside the location. geo_cells counts the
// assets collapsed lists show (stack covers), which is what the lists
// that come here read, but for WithStacked.
func fewGeoMatches(ctx context.Context, db conn, f store.AssetFilter) (bool, error) {
	boxes := locationBoxes(f.Location)
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
	err := db.queryRow(ctx, "SELECT coalesce(sum(count), 0) FROM (SELECT count FROM geo_cells WHERE library_id = ? AND "+
		liveCondition("live", f.State)+" AND units = ? AND ("+strings.Join(cells, " OR ")+") LIMIT ?) c",
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
func nonEmptyCells(ctx context.Context, db conn, f store.AssetFilter) ([]int64, error) {
	const units = 10000000
	var ors []string
	args := []any{f.LibraryID, units}
	for _, b := range locationBoxes(f.Location) {
		for _, lr := range b.LonRanges() {
			ors = append(ors, "(cx BETWEEN asset_geo_x(?::float8) / ? AND asset_geo_x(?::float8) / ?"+
				" AND cy BETWEEN asset_geo_y(?::float8) / ? AND asset_geo_y(?::float8) / ?)")
			args = append(args, lr[0], units, lr[1], units, b.MinLat, units, b.MaxLat, units)
		}
	}
	rows, err := db.query(ctx, "SELECT DISTINCT cy * 361 + cx FROM geo_cells WHERE library_id = ? AND "+
		liveCondition("live", f.State)+" AND units = ? AND ("+strings.Join(ors, " OR ")+") LIMIT ?",
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

// boxCells returns the 1° cells (numbered as asset_geo_cell) that l's
// boxes span, empty or not, or nil when there are more than maxGeoCells.
func boxCells(l *catalog.Location) []int64 {
	const units = 10000000
	var cells []int64
	for _, b := range locationBoxes(l) {
		y0, y1 := geogrid.YUnits(b.MinLat)/units, geogrid.YUnits(b.MaxLat)/units
		for _, lr := range b.LonRanges() {
			x0, x1 := geogrid.XUnits(lr[0])/units, geogrid.XUnits(lr[1])/units
			if int64(len(cells))+(x1-x0+1)*(y1-y0+1) > maxGeoCells {
				return nil
			}
			for y := y0; y <= y1; y++ {
				for x := x0; x <= x1; x++ {
					cells = append(cells, y*361+x)
				}
			}
		}
	}
	slices.Sort(cells) // a circle's boxes may share cells
	return slices.Compact(cells)
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
