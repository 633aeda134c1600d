package sqlstore

import (
	"context"
	"fmt"
	"strings"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store/geogrid"
)

// GeoEdge names the strip of a viewport's frame that a GeoStrip holds.
type GeoEdge int

const (
	GeoWhole GeoEdge = iota // the whole longitude range (it has no interior)
	GeoWest                 // longitudes up to At
	GeoEast                 // longitudes from At
	GeoSouth                // latitudes up to At
	GeoNorth                // latitudes from At
)

// GeoStrip is one part of the frame of a viewport around the level cells
// geo_cells answers for: an edge of one longitude range (Whole) of the
// viewport, reaching to At, a little inside the interior; whatever the
// strips hold inside it is left out by the exact test on x and y.
type GeoStrip struct {
	Whole catalog.BBox
	Edge  GeoEdge
	At    float64
}

// Part is the strip as a box.
func (s GeoStrip) Part() catalog.BBox {
	b := s.Whole
	switch s.Edge {
	case GeoWest:
		b.MaxLon = s.At
	case GeoEast:
		b.MinLon = s.At
	case GeoSouth:
		b.MaxLat = s.At
	case GeoNorth:
		b.MinLat = s.At
	}
	return b
}

func (r Aggregates) GeoClusters(ctx context.Context, q query.ClusterQuery) ([]query.GeoCluster, error) {
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
	case r.Path == PathAssets || r.Path == PathAuto && units == 0:
		err = r.cellsFromAssets(ctx, r.Q.d.AssetRows(q.Filter), "", g, sums)
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

// sumInt is the dialect's sum of the integer column col.
func (r Aggregates) sumInt(col string) string { return r.Q.d.SumInt(col) }

// cellsFromAssets groups the selected assets into cells; notInterior,
// when set, is a condition on their x and y.
func (r Aggregates) cellsFromAssets(ctx context.Context, sel Selection, notInterior string, g geogrid.Grid, sums *geogrid.Sums) error {
	d := r.Q.d
	inner := sel.SQL(`a.id AS id, ` + d.GeoX + ` AS x, ` + d.GeoY + ` AS y`)
	query := fmt.Sprintf(`SELECT e / %[1]d, y / %[1]d, count(*), %[5]s, %[6]s, max(id)
		FROM (SELECT id, %[2]s AS e, y FROM (%[3]s)%[7]s %[4]s)%[8]s GROUP BY 1, 2`, g.Cell, d.GeoEast(g), inner,
		notInterior, r.sumInt("e"), r.sumInt("y"), d.SubqueryAlias("p"), d.SubqueryAlias("c"))
	rows, err := r.Q.query(ctx, query, sel.Args...)
	if err != nil {
		return fmt.Errorf("geo clusters: %w", r.Q.translate(err))
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
	return r.Q.translate(rows.Err())
}

// cellsFromTable answers from the level cells that lie wholly inside the
// viewport, and from the assets of the rest: a frame thinner than one level
// cell along each edge, read through the spatial index (Dialect.GeoFrame).
func (r Aggregates) cellsFromTable(ctx context.Context, f query.AssetFilter, box catalog.BBox, g geogrid.Grid, units int64, sums *geogrid.Sums) error {
	var cy0, cy1 int64
	var inside []string
	var strips []GeoStrip
	for _, lr := range box.LonRanges() {
		in := geogrid.InteriorOf(box, lr, units)
		cy0, cy1 = in.CY0, in.CY1
		whole := catalog.BBox{MinLon: lr[0], MinLat: box.MinLat, MaxLon: lr[1], MaxLat: box.MaxLat}
		if in.Empty() {
			strips = append(strips, GeoStrip{Whole: whole})
			continue
		}
		if err := r.interiorCells(ctx, f, g, units, in, sums); err != nil {
			return err
		}
		// The strips west, east, south and north of the interior, each
		// reaching pad into it.
		const pad = 1e-4
		strips = append(strips,
			GeoStrip{whole, GeoWest, geogrid.Degrees(in.CX0*units) - 180 + pad},
			GeoStrip{whole, GeoEast, geogrid.Degrees((in.CX1+1)*units) - 180 - pad},
			GeoStrip{whole, GeoSouth, geogrid.Degrees(in.CY0*units) - 90 + pad},
			GeoStrip{whole, GeoNorth, geogrid.Degrees((in.CY1+1)*units) - 90 - pad})
		inside = append(inside, fmt.Sprintf("x / %d BETWEEN %d AND %d", units, in.CX0, in.CX1))
	}
	notInterior := ""
	if len(inside) > 0 {
		notInterior = fmt.Sprintf("WHERE NOT (y / %d BETWEEN %d AND %d AND (%s))", units, cy0, cy1, strings.Join(inside, " OR "))
	}
	return r.cellsFromAssets(ctx, r.Q.d.GeoFrame(f, strips), notInterior, g, sums)
}

// interiorCells adds the level cells of one interior rectangle.
func (r Aggregates) interiorCells(ctx context.Context, f query.AssetFilter, g geogrid.Grid, units int64, in geogrid.Interior, sums *geogrid.Sums) error {
	rows, err := r.Q.query(ctx, `SELECT cx, cy, `+r.sumInt("count")+`, `+r.sumInt("sum_x")+`, `+r.sumInt("sum_y")+`, max(rep_id)
		FROM geo_cells WHERE library_id = ? AND `+LiveCondition("live", f.State)+` AND units = ?
		AND cx BETWEEN ? AND ? AND cy BETWEEN ? AND ? GROUP BY cx, cy`,
		f.LibraryID, units, in.CX0, in.CX1, in.CY0, in.CY1)
	if err != nil {
		return fmt.Errorf("geo clusters: %w", r.Q.translate(err))
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
	return r.Q.translate(rows.Err())
}
