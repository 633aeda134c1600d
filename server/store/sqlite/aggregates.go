package sqlite

// What SQLite spells its own way in the counts and clusters repository
// written once (sqlstore/aggregates.go), handed over in the dialect
// (conn.go, which spells the day and grid expressions of migration 0003):
// the R*Tree that drives every located read.

import (
	"strings"

	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store/sqlstore"
)

// dayMicros is one day of capture_wall.
const dayMicros = 86_400_000_000

// selectAssets selects what List selects. With a location, the R*Tree
// drives the join: left to itself, the planner scans the library's whole
// timeline and probes the R*Tree's answer for each row. The location tests
// are those of locationConditions in assets_geo_plan.go.
func selectAssets(f query.AssetFilter) sqlstore.Selection {
	if f.Location == nil {
		where, args := sqlstore.AssetConditions(inIDs, f)
		where, args = withAlbum(f, where, args)
		return sqlstore.Selection{From: "assets a", Where: where, Args: args}
	}
	ors, args := sqlstore.GeoBoxes(f.Location, rtreeEntry)
	sel := viaRTree(f, []string{ors}, args)
	sel.Where, sel.Args = sqlstore.WithCircle(f.Location, floatArg, sel.Where, sel.Args)
	return sel
}

// rtreeBox is the R*Tree test of one longitude range of a box.
const rtreeBox = "min_lon >= ? AND max_lon <= ? AND min_lat >= ? AND max_lat <= ?"

// rtreeEdges are the R*Tree tests of the strips of a frame, with rtreeBox.
var rtreeEdges = map[sqlstore.GeoEdge]string{sqlstore.GeoWest: "min_lon <= ?", sqlstore.GeoEast: "max_lon >= ?",
	sqlstore.GeoSouth: "min_lat <= ?", sqlstore.GeoNorth: "max_lat >= ?"}

// geoFrame selects the assets of f among the R*Tree entries in strips.
func geoFrame(f query.AssetFilter, strips []sqlstore.GeoStrip) sqlstore.Selection {
	var terms []string
	var args []any
	for _, s := range strips {
		// The list's location test, narrowed to the strip.
		args = append(args, s.Whole.MinLon, s.Whole.MaxLon, s.Whole.MinLat, s.Whole.MaxLat)
		if s.Edge == sqlstore.GeoWhole {
			terms = append(terms, rtreeBox)
			continue
		}
		terms, args = append(terms, rtreeBox+" AND "+rtreeEdges[s.Edge]), append(args, s.At)
	}
	return viaRTree(f, terms, args)
}

// viaRTree selects the assets of f (but its location) among the R*Tree
// entries that pass any of terms.
func viaRTree(f query.AssetFilter, terms []string, termArgs []any) sqlstore.Selection {
	f.Location = nil
	where, args := sqlstore.AssetConditions(inIDs, f)
	where, args = withAlbum(f, where, args)
	return sqlstore.Selection{From: "(SELECT seq FROM assets_geo WHERE (" + strings.Join(terms, ") OR (") +
		")) g CROSS JOIN assets a ON a.seq = g.seq", Where: where, Args: append(termArgs, args...)}
}

// withAlbum adds f's album to conditions over "assets a" (lists instead
// start from the album's own timeline: albumTimeline).
func withAlbum(f query.AssetFilter, where []string, args []any) ([]string, []any) {
	if f.AlbumID == "" {
		return where, args
	}
	return append(where, "a.id IN (SELECT asset_id FROM album_assets WHERE album_id = ?)"), append(args, f.AlbumID)
}
