package geogrid

import (
	"slices"

	"github.com/photoctl/photoctl/server/catalog"
)

// LocationBoxes are the boxes that bound a location: its box, or a
// circle's bounding boxes (split at the antimeridian).
func LocationBoxes(l *catalog.Location) []catalog.BBox {
	if l.Box != nil {
		return []catalog.BBox{*l.Box}
	}
	return l.Circle.Bounds()
}

// DegreeCells returns the 1° cells that l's boxes span, empty or not,
// sorted, numbered y*361 + x as geo_cells numbers them at units
// UnitsPerDegree (SQLite's assets.geo_cell, PostgreSQL's asset_geo_cell),
// or nil when there are more than maxCells of them.
func DegreeCells(l *catalog.Location, maxCells int) []int64 {
	var cells []int64
	for _, b := range LocationBoxes(l) {
		y0, y1 := YUnits(b.MinLat)/UnitsPerDegree, YUnits(b.MaxLat)/UnitsPerDegree
		for _, lr := range b.LonRanges() {
			x0, x1 := XUnits(lr[0])/UnitsPerDegree, XUnits(lr[1])/UnitsPerDegree
			if int64(len(cells))+(x1-x0+1)*(y1-y0+1) > int64(maxCells) {
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
