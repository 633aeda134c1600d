package sqlite

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
	sqlX = "CAST((a.longitude + 180) * 10000000 + 0.5 AS INTEGER)"
	sqlY = "CAST((a.latitude + 90) * 10000000 + 0.5 AS INTEGER)"
)

// sqlEast is geogrid.Grid.East over a column x of a subquery.
func sqlEast(g geogrid.Grid) string {
	return fmt.Sprintf("(x - %d + (x < %d) * %d)", g.Origin, g.Origin, geogrid.FullTurn)
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
	query := fmt.Sprintf(`SELECT e / %[1]d, y / %[1]d, count(*), sum(e), sum(y), max(id)
		FROM (SELECT id, %[2]s AS e, y FROM (%[3]s) %[4]s) GROUP BY 1, 2`, g.Cell, sqlEast(g), inner, notInterior)
	rows, err := r.q.QueryContext(ctx, query, sel.args...)
	if err != nil {
		return translate(err)
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
// cell along each edge, read through the R*Tree.
func (r aggregates) cellsFromTable(ctx context.Context, f store.AssetFilter, box catalog.BBox, g geogrid.Grid, units int64, sums *geogrid.Sums) error {
	var cy0, cy1 int64
	var terms, inside []string
	var args []any
	for _, lr := range box.LonRanges() {
		in := geogrid.InteriorOf(box, lr, units)
		cy0, cy1 = in.CY0, in.CY1
		// The list's location test, narrowed to the frame.
		boxArgs := []any{lr[0], lr[1], box.MinLat, box.MaxLat}
		if in.Empty() {
			terms, args = append(terms, rtreeBox), append(args, boxArgs...)
			continue
		}
		if err := r.interiorCells(ctx, f, g, units, in, sums); err != nil {
			return err
		}
		const pad = 1e-4
		for _, strip := range []struct {
			cond  string
			value float64
		}{
			{"min_lon <= ?", geogrid.Degrees(in.CX0*units) - 180 + pad},
			{"max_lon >= ?", geogrid.Degrees((in.CX1+1)*units) - 180 - pad},
			{"min_lat <= ?", geogrid.Degrees(in.CY0*units) - 90 + pad},
			{"max_lat >= ?", geogrid.Degrees((in.CY1+1)*units) - 90 - pad},
		} {
			terms, args = append(terms, rtreeBox+" AND "+strip.cond), append(append(args, boxArgs...), strip.value)
		}
		inside = append(inside, fmt.Sprintf("x / %d BETWEEN %d AND %d", units, in.CX0, in.CX1))
	}
	notInterior := ""
	if len(inside) > 0 {
		notInterior = fmt.Sprintf("WHERE NOT (y / %d BETWEEN %d AND %d AND (%s))", units, cy0, cy1, strings.Join(inside, " OR "))
	}
	return r.cellsFromAssets(ctx, viaRTree(f, terms, args), notInterior, g, sums)
}

// interiorCells adds the level cells of one interior rectangle.
func (r aggregates) interiorCells(ctx context.Context, f store.AssetFilter, g geogrid.Grid, units int64, in geogrid.Interior, sums *geogrid.Sums) error {
	rows, err := r.q.QueryContext(ctx, `SELECT cx, cy, sum(count), sum(sum_x), sum(sum_y), max(rep_id)
		FROM geo_cells WHERE library_id = ? AND `+liveCondition("live", f.State)+` AND units = ?
		AND cx BETWEEN ? AND ? AND cy BETWEEN ? AND ? GROUP BY cx, cy`,
		f.LibraryID, units, in.CX0, in.CX1, in.CY0, in.CY1)
	if err != nil {
		return translate(err)
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
