package postgres

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// Positions are integers in units of 1e-7 degree east of -180 (x) and north
// of -90 (y), as migration 0006 computes them (asset_geo_x, asset_geo_y);
// SQL and Go round alike, so a position falls in the same cell on every
// path.
const (
	unitsPerDegree = 10_000_000
	fullTurn       = 360 * unitsPerDegree
	sqlX           = "asset_geo_x(a.longitude)"
	sqlY           = "asset_geo_y(a.latitude)"
	// interiorMargin keeps aggregated cells 1e-4 degree inside the
	// viewport, so every asset of such a cell passes the viewport test of
	// the asset list whatever the rounding of its position.
	interiorMargin = 1000
)

// geoLevels are the cell sizes of geo_cells (table geo_levels), coarsest
// first.
var geoLevels = []int64{10_000_000, 1_000_000, 100_000}

func xUnits(lon float64) int64 { return int64(float64((lon+180)*unitsPerDegree) + 0.5) }
func yUnits(lat float64) int64 { return int64(float64((lat+90)*unitsPerDegree) + 0.5) }
func degrees(u int64) float64  { return float64(u) / unitsPerDegree }

// grid is a clustering grid. Cells are cell units wide and high, aligned on
// -90 and on origin; a column counts east from origin, over the antimeridian
// for a crossing viewport, so its band is one row of cells (catalog.BBox.EastOf
// in integer units).
type grid struct {
	cell   int64
	origin int64 // 0, or for a crossing viewport the grid line at or west of its west edge
}

func newGrid(box catalog.BBox, cellSize float64) grid {
	g := grid{cell: max(1, int64(math.Round(cellSize*unitsPerDegree)))}
	if box.CrossesAntimeridian() {
		g.origin = xUnits(box.MinLon) / g.cell * g.cell
	}
	return g
}

// east is x measured east from the origin.
func (g grid) east(x int64) int64 {
	if x < g.origin {
		return x - g.origin + fullTurn
	}
	return x - g.origin
}

// sqlEast is east over a column x of a subquery.
func (g grid) sqlEast() string {
	return fmt.Sprintf("(x - %d + CASE WHEN x < %d THEN %d ELSE 0 END)", g.origin, g.origin, fullTurn)
}

// cellKey names a cell of a grid: its column and row.
type cellKey struct{ col, row int64 }

// cellSum accumulates one cell: sums of east and y, the greatest id.
type cellSum struct {
	count, sumEast, sumY int64
	rep                  string
}

// cellSums collects the non-empty cells of an answer, failing past max.
type cellSums struct {
	cells map[cellKey]*cellSum
	max   int
}

func (s *cellSums) add(k cellKey, v cellSum) error {
	c, ok := s.cells[k]
	if !ok {
		if len(s.cells) >= s.max {
			return &store.TooManyCellsError{Max: s.max}
		}
		c = &cellSum{}
		s.cells[k] = c
	}
	c.count += v.count
	c.sumEast += v.sumEast
	c.sumY += v.sumY
	c.rep = max(c.rep, v.rep)
	return nil
}

// clusters turns the sums into the answer, south to north, west to east.
func (s *cellSums) clusters(g grid) []store.GeoCluster {
	keys := make([]cellKey, 0, len(s.cells))
	for k := range s.cells {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		return keys[i].row < keys[j].row || keys[i].row == keys[j].row && keys[i].col < keys[j].col
	})
	out := make([]store.GeoCluster, len(keys))
	for i, k := range keys {
		c := s.cells[k]
		n := float64(c.count)
		lon := (float64(g.origin)+float64(c.sumEast)/n)/unitsPerDegree - 180
		if lon > 180 {
			lon -= 360
		}
		out[i] = store.GeoCluster{Latitude: float64(c.sumY)/n/unitsPerDegree - 90, Longitude: lon,
			Count: c.count, RepresentativeID: c.rep}
	}
	return out
}

func (r aggregates) GeoClusters(ctx context.Context, q store.ClusterQuery) ([]store.GeoCluster, error) {
	return r.geoClusters(ctx, q, pathAuto)
}

func (r aggregates) geoClusters(ctx context.Context, q store.ClusterQuery, p path) ([]store.GeoCluster, error) {
	if q.Filter.Location == nil || q.Filter.Location.Box == nil {
		return nil, fmt.Errorf("geo clusters: no viewport")
	}
	box := *q.Filter.Location.Box
	g := newGrid(box, q.CellSize)
	sums := &cellSums{cells: map[cellKey]*cellSum{}, max: q.MaxCells}
	units := clusterLevel(q.Filter, g)
	var err error
	switch {
	case p == pathAssets || p == pathAuto && units == 0:
		err = r.cellsFromAssets(ctx, selectAssets(q.Filter), "", g, sums)
	case units == 0:
		err = fmt.Errorf("geo clusters: geo_cells cannot answer this query")
	default:
		err = r.cellsFromTable(ctx, q.Filter, box, g, units, sums)
	}
	if err != nil {
		return nil, err
	}
	return sums.clusters(g), nil
}

// clusterLevel is the coarsest level of geo_cells that can answer: its
// cells tile the grid's cells, and no filter but the library, the state and
// the viewport is set. 0 means none.
func clusterLevel(f store.AssetFilter, g grid) int64 {
	if len(f.IDs) > 0 || f.StackID != "" || f.AlbumID != "" || len(f.PersonIDs) > 0 || f.MediaType != "" ||
		f.MinRating != nil || !f.Capture.IsZero() || f.Location.Circle != nil {
		return 0
	}
	for _, u := range geoLevels {
		if g.cell%u == 0 { // the origin is a multiple of the cell, so of u
			return u
		}
	}
	return 0
}

// cellsFromAssets groups the selected assets into cells; notInterior,
// when set, is a condition on their x and y.
func (r aggregates) cellsFromAssets(ctx context.Context, sel selection, notInterior string, g grid, sums *cellSums) error {
	inner := sel.sql(`a.id AS id, ` + sqlX + ` AS x, ` + sqlY + ` AS y`)
	query := fmt.Sprintf(`SELECT e / %[1]d, y / %[1]d, count(*), sum(e)::bigint, sum(y)::bigint, max(id)
		FROM (SELECT id, %[2]s AS e, y FROM (%[3]s) p %[4]s) c GROUP BY 1, 2`, g.cell, g.sqlEast(), inner, notInterior)
	rows, err := r.q.query(ctx, query, sel.args...)
	if err != nil {
		return fmt.Errorf("geo clusters: %w", translate(err))
	}
	defer rows.Close()
	for rows.Next() {
		var k cellKey
		var v cellSum
		if err := rows.Scan(&k.col, &k.row, &v.count, &v.sumEast, &v.sumY, &v.rep); err != nil {
			return err
		}
		if err := sums.add(k, v); err != nil {
			return err
		}
	}
	return translate(rows.Err())
}

// interior is a rectangle of level cells [cx0, cx1] × [cy0, cy1] inside
// one longitude range of the viewport, empty when cx0 > cx1 or cy0 > cy1.
type interior struct{ cx0, cx1, cy0, cy1 int64 }

func (in interior) empty() bool { return in.cx0 > in.cx1 || in.cy0 > in.cy1 }

// cellsFromTable answers from the level cells that lie wholly inside the
// viewport, and from the assets of the rest: a frame thinner than one level
// cell along each edge, read through the spatial index one strip at a time.
func (r aggregates) cellsFromTable(ctx context.Context, f store.AssetFilter, box catalog.BBox, g grid, units int64, sums *cellSums) error {
	cy0 := ceilDiv(yUnits(box.MinLat)+interiorMargin, units)
	cy1 := floorDiv(yUnits(box.MaxLat)-interiorMargin, units) - 1
	var terms, inside []string
	var args []any
	for _, lr := range box.LonRanges() {
		in := interior{ceilDiv(xUnits(lr[0])+interiorMargin, units), floorDiv(xUnits(lr[1])-interiorMargin, units) - 1, cy0, cy1}
		whole := catalog.BBox{MinLon: lr[0], MinLat: box.MinLat, MaxLon: lr[1], MaxLat: box.MaxLat}
		if in.empty() {
			t, a := stripCondition(whole, whole)
			terms, args = append(terms, t), append(args, a...)
			continue
		}
		if err := r.interiorCells(ctx, f, g, units, in, sums); err != nil {
			return err
		}
		// The strips west, east, south and north of the interior, each
		// reaching pad into it; whatever they hold inside it is left out
		// below by the exact test on x and y.
		const pad = 1e-4
		west, east := degrees(in.cx0*units)-180+pad, degrees((in.cx1+1)*units)-180-pad
		south, north := degrees(in.cy0*units)-90+pad, degrees((in.cy1+1)*units)-90-pad
		for _, s := range []catalog.BBox{
			{MinLon: lr[0], MinLat: box.MinLat, MaxLon: west, MaxLat: box.MaxLat},
			{MinLon: east, MinLat: box.MinLat, MaxLon: lr[1], MaxLat: box.MaxLat},
			{MinLon: lr[0], MinLat: box.MinLat, MaxLon: lr[1], MaxLat: south},
			{MinLon: lr[0], MinLat: north, MaxLon: lr[1], MaxLat: box.MaxLat},
		} {
			t, a := stripCondition(whole, s)
			terms, args = append(terms, t), append(args, a...)
		}
		inside = append(inside, fmt.Sprintf("x / %d BETWEEN %d AND %d", units, in.cx0, in.cx1))
	}
	notInterior := ""
	if len(inside) > 0 {
		notInterior = fmt.Sprintf("WHERE NOT (y / %d BETWEEN %d AND %d AND (%s))", units, cy0, cy1, strings.Join(inside, " OR "))
	}
	unlocated := f
	unlocated.Location = nil
	sel := selectAssets(unlocated)
	sel.where = append(sel.where, "a.latitude IS NOT NULL", "a.longitude IS NOT NULL",
		"(("+strings.Join(terms, ") OR (")+"))")
	sel.args = append(sel.args, args...)
	return r.cellsFromAssets(ctx, sel, notInterior, g, sums)
}

// stripCondition selects the assets of one longitude range of the viewport
// (whole, tested exactly as the list tests a box: geoBoxes) that lie in strip, a part
// of it found through the spatial index assets_geo (whose operators compare
// with a tolerance, so the strip only narrows the search).
func stripCondition(whole, strip catalog.BBox) (string, []any) {
	return `point(a.longitude, a.latitude) <@ box(point(?::float8, ?::float8), point(?::float8, ?::float8))
		AND a.longitude >= ?::float8 AND a.longitude <= ?::float8 AND a.latitude >= ?::float8 AND a.latitude <= ?::float8`,
		[]any{strip.MinLon, strip.MinLat, strip.MaxLon, strip.MaxLat, whole.MinLon, whole.MaxLon, whole.MinLat, whole.MaxLat}
}

// interiorCells adds the level cells of one interior rectangle.
func (r aggregates) interiorCells(ctx context.Context, f store.AssetFilter, g grid, units int64, in interior, sums *cellSums) error {
	rows, err := r.q.query(ctx, `SELECT cx, cy, sum(count)::bigint, sum(sum_x)::bigint, sum(sum_y)::bigint, max(rep_id)
		FROM geo_cells WHERE library_id = ? AND `+liveCondition("live", f.State)+` AND units = ?
		AND cx BETWEEN ? AND ? AND cy BETWEEN ? AND ? GROUP BY cx, cy`,
		f.LibraryID, units, in.cx0, in.cx1, in.cy0, in.cy1)
	if err != nil {
		return fmt.Errorf("geo clusters: %w", translate(err))
	}
	defer rows.Close()
	for rows.Next() {
		var cx, cy, sumX int64
		var v cellSum
		if err := rows.Scan(&cx, &cy, &v.count, &sumX, &v.sumY, &v.rep); err != nil {
			return err
		}
		// A level cell lies on one side of the origin (both are multiples
		// of units), so its assets share the wrap of its first x.
		x0 := cx * units
		v.sumEast = sumX - v.count*g.origin
		if x0 < g.origin {
			v.sumEast += v.count * fullTurn
		}
		if err := sums.add(cellKey{g.east(x0) / g.cell, cy * units / g.cell}, v); err != nil {
			return err
		}
	}
	return translate(rows.Err())
}
