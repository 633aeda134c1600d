package postgres

// What PostgreSQL spells its own way in the counts and clusters
// repository written once (sqlstore/aggregates.go), handed over in the
// dialect (conn.go): the functions of its aggregates migration, buckets in
// SQL, and reads through the GiST index on point(longitude, latitude).

import (
	"fmt"
	"strings"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/store/geogrid"
	"github.com/photoctl/photoctl/server/store/sqlstore"
)

// sqlDay is the wall-clock date of "assets a" as days since 1970-01-01
// (floor division): migration 0003_aggregates's asset_day.
const sqlDay = "asset_day(a.capture_wall)"

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

// bucketDay is the first day of the bucket of a day (an SQL expression of
// days since 1970-01-01), as days since 1970-01-01: store.CountBucket.Start
// in SQL, so that a page holds its buckets and one more, not every day.
func bucketDay(b store.CountBucket, day string) string {
	switch b {
	case store.BucketMonth, store.BucketYear:
		return "(date_trunc('" + string(b) + "', (date '1970-01-01' + (" + day + ")::integer)::timestamp)::date - date '1970-01-01')"
	}
	return day
}

// selectAssets selects what List selects, through the list's own
// conditions (assetConditions, with the spatial index on offer to the
// planner), and an album's links.
func selectAssets(f store.AssetFilter) sqlstore.Selection {
	where, args := assetConditions(f, false)
	if f.AlbumID != "" {
		where = append(where, "a.id IN (SELECT asset_id FROM album_assets WHERE album_id = ?)")
		args = append(args, f.AlbumID)
	}
	return sqlstore.Selection{From: "assets a", Where: where, Args: args}
}

// geoFrame selects the assets of f (but its location) in strips, one
// spatial index search a strip.
func geoFrame(f store.AssetFilter, strips []sqlstore.GeoStrip) sqlstore.Selection {
	var terms []string
	var args []any
	for _, s := range strips {
		t, a := stripCondition(s.Whole, s.Part())
		terms, args = append(terms, t), append(args, a...)
	}
	f.Location = nil
	sel := selectAssets(f)
	sel.Where = append(sel.Where, "a.latitude IS NOT NULL", "a.longitude IS NOT NULL",
		"(("+strings.Join(terms, ") OR (")+"))")
	sel.Args = append(sel.Args, args...)
	return sel
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
