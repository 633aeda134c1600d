package sqlite

import (
	"fmt"
	"strings"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/store/geogrid"
	"github.com/photoctl/photoctl/server/store/sqlstore"
)

// The asset list is sqlstore's (sqlstore/assets_list.go), with its
// location plan from here (assets_geo_plan.go). These conditions, the
// same with SQLite's location tests, are the counts' and clusters'
// (aggregates.go) and the search's (search_query.go).

// assetConditions turns a filter, all but its album, into SQL conditions
// over "assets a": sqlstore's, then the location, tested through the
// R*Tree, or row by row when dense (lists choose per query instead:
// planLocation).
func assetConditions(f store.AssetFilter, dense bool) ([]string, []any) {
	where, args := sqlstore.AssetConditions(inIDs, f)
	w, a := locationConditions(f.Location, dense)
	return append(where, w...), append(args, a...)
}

// locationConditions selects assets through the R*Tree, or, when dense,
// by their coordinate columns; a circle is pre-filtered by its bounding
// boxes and tested exactly with geo_distance.
func locationConditions(l *catalog.Location, dense bool) ([]string, []any) {
	if l == nil {
		return nil, nil
	}
	var where []string
	var args []any
	if dense {
		ors, boxArgs := geoBoxes(l, "a.longitude", "a.longitude", "a.latitude", "a.latitude")
		where, args = []string{"(" + ors + ")"}, boxArgs
	} else {
		ors, boxArgs := geoBoxes(l, "min_lon", "max_lon", "min_lat", "max_lat")
		where, args = []string{"a.seq IN (SELECT seq FROM assets_geo WHERE " + ors + ")"}, boxArgs
	}
	if l.Circle != nil {
		w, a := circleCondition(l.Circle)
		where, args = append(where, w), append(args, a...)
	}
	return where, args
}

// circleCondition is the exact great-circle test of a circle.
func circleCondition(c *catalog.Circle) (string, []any) {
	return "geo_distance(a.longitude, a.latitude, ?, ?) <= ?", []any{c.Lon, c.Lat, c.RadiusM}
}

// geoBoxes is the OR of a location's boxes (split at the antimeridian) over
// the named columns.
func geoBoxes(l *catalog.Location, minLon, maxLon, minLat, maxLat string) (string, []any) {
	var ors []string
	var args []any
	for _, b := range geogrid.LocationBoxes(l) {
		for _, lr := range b.LonRanges() {
			ors = append(ors, fmt.Sprintf("(%s >= ? AND %s <= ? AND %s >= ? AND %s <= ?)", minLon, maxLon, minLat, maxLat))
			args = append(args, lr[0], lr[1], b.MinLat, b.MaxLat)
		}
	}
	return strings.Join(ors, " OR "), args
}
