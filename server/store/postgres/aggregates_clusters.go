package postgres

import (
	"context"
	"fmt"
	"strings"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/store/geogrid"
)

// sqlX and sqlY are an asset's position in geogrid units, computed as
// geogrid.XUnits and YUnits do (and as the geo_cells triggers store it).
const (
	sqlX = "asset_geo_x(a.longitude)"
	sqlY = "asset_geo_y(a.latitude)"
)

// sqlEast is geogrid.Grid.East over a column x of a subquery.
func sqlEast(g geogrid.Grid) string {
	return fmt.Sprintf("(x - %d + CASE WHEN x < %d THEN %d ELSE 0 END)", g.Origin, g.Origin, geogrid.FullTurn)
}

func (r aggregates) GeoClusters(ctx context.Context, q store.ClusterQuery) ([]store.GeoCluster, error) {
	return r.geoClusters(ctx, q, pathAuto)
}

func (r aggregates) geoClusters(ctx context.Context, q store.ClusterQuery, p path) ([]store.GeoCluster, error) {
	if q.Filter.Location == nil || q.Filter.Location.Box == nil {
		return nil, fmt.Errorf("geo clusters: no viewport")
	}
	box := *q.Filter.Location.Box
	g := geogrid.New(box, q.CellSize)
	sums := geogrid.NewSums(q.MaxCells)
	units := geogrid.Level(q.Filter, g)
	if q.Filter.WithStacked {
		units = 0 // geo_cells counts stack covers only: the members are in the assets
	}
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
	return sums.Clusters(g), nil
}

// cellsFromAssets groups the selected assets into cells; notInterior,
// when set, is a condition on their x and y.
func (r aggregates) cellsFromAssets(ctx context.Context, sel selection, notInterior string, g geogrid.Grid, sums *geogrid.Sums) error {
	inner := sel.sql(`a.id AS id, ` + sqlX + ` AS x, ` + sqlY + ` AS y`)
	query := fmt.Sprintf(`SELECT e / %[1]d, y / %[1]d, count(*), sum(e)::bigint, sum(y)::bigint, max(id)
		FROM (SELECT id, %[2]s AS e, y FROM (%[3]s) p %[4]s) c GROUP BY 1, 2`, g.Cell, sqlEast(g), inner, notInterior)
	rows, err := r.q.query(ctx, query, sel.args...)
	if err != nil {
		return fmt.Errorf("geo clusters: %w", translate(err))
	}
	defer rows.Close()
	for rows.Next() {
		var k geogrid.Key
		var v geogrid.Sum
		if err := rows.Scan(&k.Col, &k.Row, &v.Count, &v.SumEast, &v.SumY, &v.Rep); err != nil {
			return err
		}
		if err := sums.Add(k, v); err != nil {
			return err
		}
	}
	return translate(rows.Err())
}

// cellsFromTable answers from the level cells that lie wholly inside the
// viewport, and from the assets of the rest: a frame thinner than one level
// cell along each edge, read through the spatial index one strip at a time.
func (r aggregates) cellsFromTable(ctx context.Context, f store.AssetFilter, box catalog.BBox, g geogrid.Grid, units int64, sums *geogrid.Sums) error {
	var cy0, cy1 int64
	var terms, inside []string
	var args []any
	for _, lr := range box.LonRanges() {
		in := geogrid.InteriorOf(box, lr, units)
		cy0, cy1 = in.CY0, in.CY1
		whole := catalog.BBox{MinLon: lr[0], MinLat: box.MinLat, MaxLon: lr[1], MaxLat: box.MaxLat}
		if in.Empty() {
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
		west, east := geogrid.Degrees(in.CX0*units)-180+pad, geogrid.Degrees((in.CX1+1)*units)-180-pad
		south, north := geogrid.Degrees(in.CY0*units)-90+pad, geogrid.Degrees((in.CY1+1)*units)-90-pad
		for _, s := range []catalog.BBox{
			{MinLon: lr[0], MinLat: box.MinLat, MaxLon: west, MaxLat: box.MaxLat},
			{MinLon: east, MinLat: box.MinLat, MaxLon: lr[1], MaxLat: box.MaxLat},
			{MinLon: lr[0], MinLat: box.MinLat, MaxLon: lr[1], MaxLat: south},
			{MinLon: lr[0], MinLat: north, MaxLon: lr[1], MaxLat: box.MaxLat},
		} {
			t, a := stripCondition(whole, s)
			terms, args = append(terms, t), append(args, a...)
		}
		inside = append(inside, fmt.Sprintf("x / %d BETWEEN %d AND %d", units, in.CX0, in.CX1))
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
func (r aggregates) interiorCells(ctx context.Context, f store.AssetFilter, g geogrid.Grid, units int64, in geogrid.Interior, sums *geogrid.Sums) error {
	rows, err := r.q.query(ctx, `SELECT cx, cy, sum(count)::bigint, sum(sum_x)::bigint, sum(sum_y)::bigint, max(rep_id)
		FROM geo_cells WHERE library_id = ? AND `+liveCondition("live", f.State)+` AND units = ?
		AND cx BETWEEN ? AND ? AND cy BETWEEN ? AND ? GROUP BY cx, cy`,
		f.LibraryID, units, in.CX0, in.CX1, in.CY0, in.CY1)
	if err != nil {
		return fmt.Errorf("geo clusters: %w", translate(err))
	}
	defer rows.Close()
	for rows.Next() {
		var cx, cy, sumX int64
		var v geogrid.Sum
		if err := rows.Scan(&cx, &cy, &v.Count, &sumX, &v.SumY, &v.Rep); err != nil {
			return err
		}
		if err := sums.Add(g.LevelCell(units, cx, cy, sumX, v)); err != nil {
			return err
		}
	}
	return translate(rows.Err())
}
