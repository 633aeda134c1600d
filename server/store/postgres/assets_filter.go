package postgres

import (
	"strings"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/store/geogrid"
	"github.com/photoctl/photoctl/server/store/sqlstore"
)

// assetConditions turns a filter, all but its album, into SQL conditions
// over "assets a": sqlstore's, then the location. Counts, clusters and
// search share it (the asset list's location is planLocation's).
//
// A location is tested exactly on the coordinate columns. Unless dense,
// each box also carries the GiST test point(longitude, latitude) <@ box
// (index assets_geo), which PostgreSQL then prefers whatever the box (it
// prices <@ at a fixed 0.1% of the rows): pass dense=false only when the
// box holds few assets (fewGeoMatches) or every match is read anyway; with
// dense (many matches, or another index drives the query) only the columns
// are tested and the timeline index serves the query.
func assetConditions(f store.AssetFilter, dense bool) ([]string, []any) {
	where, args := sqlstore.AssetConditions(inIDs, f)
	w, a := locationConditions(f.Location, dense)
	return append(where, w...), append(args, a...)
}

// locationConditions selects the assets of a location: any of its boxes
// (split at the antimeridian) tested on the coordinate columns, with the
// GiST test in front unless dense; a circle is then tested exactly with
// geo_distance (0005_assets), catalog.DistanceMeters in SQL.
func locationConditions(l *catalog.Location, dense bool) ([]string, []any) {
	if l == nil {
		return nil, nil
	}
	ors, args := geoBoxes(l, dense)
	where := []string{"a.latitude IS NOT NULL", "a.longitude IS NOT NULL", "(" + ors + ")"}
	if l.Circle != nil {
		w, a := circleCondition(l.Circle)
		where, args = append(where, w), append(args, a...)
	}
	return where, args
}

// circleCondition is the exact great-circle test of a circle.
func circleCondition(c *catalog.Circle) (string, []any) {
	return "geo_distance(a.longitude, a.latitude, ?::float8, ?::float8) <= ?::float8", []any{c.Lon, c.Lat, c.RadiusM}
}

// geoBoxes is the OR of a location's boxes (split at the antimeridian),
// edges included. The geometric <@ compares with a tolerance of 1e-6, so
// the columns are always tested too: the GiST test only finds candidates.
func geoBoxes(l *catalog.Location, dense bool) (string, []any) {
	var ors []string
	var args []any
	for _, b := range geogrid.LocationBoxes(l) {
		for _, lr := range b.LonRanges() {
			exact := "a.longitude >= ?::float8 AND a.longitude <= ?::float8 AND a.latitude >= ?::float8 AND a.latitude <= ?::float8"
			if dense {
				ors, args = append(ors, "("+exact+")"), append(args, lr[0], lr[1], b.MinLat, b.MaxLat)
				continue
			}
			ors = append(ors, "(point(a.longitude, a.latitude) <@ box(point(?::float8, ?::float8), point(?::float8, ?::float8)) AND "+exact+")")
			args = append(args, lr[0], b.MinLat, lr[1], b.MaxLat, lr[0], lr[1], b.MinLat, b.MaxLat)
		}
	}
	return strings.Join(ors, " OR "), args
}
