package postgres

// What PostgreSQL spells its own way in the counts and clusters
// repository written once (sqlstore/aggregates.go), handed over in the
// dialect (conn.go, which names the functions of its aggregates
// migration): buckets in SQL, and reads through the GiST index on
// point(longitude, latitude).

import (
	"strings"

	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store/sqlstore"
)

// bucketDay is the first day of the bucket of a day (an SQL expression of
// days since 1970-01-01), as days since 1970-01-01: query.CountBucket.Start
// in SQL, so that a page holds its buckets and one more, not every day.
func bucketDay(b query.CountBucket, day string) string {
	switch b {
	case query.BucketMonth, query.BucketYear:
		return "(date_trunc('" + string(b) + "', (date '1970-01-01' + (" + day + ")::integer)::timestamp)::date - date '1970-01-01')"
	}
	return day
}

// selectAssets selects what List selects, through the list's own
// conditions (FilterConditions, with the spatial index on offer to the
// planner), and an album's links.
func selectAssets(f query.AssetFilter) sqlstore.Selection {
	where, args := sqlstore.FilterConditions(inIDs, locationConditions, f, false)
	if f.AlbumID != "" {
		where = append(where, "a.id IN (SELECT asset_id FROM album_assets WHERE album_id = ?)")
		args = append(args, f.AlbumID)
	}
	return sqlstore.Selection{From: "assets a", Where: where, Args: args}
}

// geoFrame selects the assets of f (but its location) in strips, one
// spatial index search a strip (gistBox: the strip searched, its longitude
// range of the viewport tested exactly, as the list tests a box).
func geoFrame(f query.AssetFilter, strips []sqlstore.GeoStrip) sqlstore.Selection {
	var terms []string
	var args []any
	for _, s := range strips {
		t, a := gistBox(s.Part(), s.Whole)
		terms, args = append(terms, t), append(args, a...)
	}
	f.Location = nil
	sel := selectAssets(f)
	sel.Where = append(sel.Where, "a.latitude IS NOT NULL", "a.longitude IS NOT NULL",
		"(("+strings.Join(terms, ") OR (")+"))")
	sel.Args = append(sel.Args, args...)
	return sel
}
