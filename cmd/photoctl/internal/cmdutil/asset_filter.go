package cmdutil

import (
	"context"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/client"
)

// AssetFilterFlags are the filters of the asset list, shared by ls,
// download, bulk-edit and albums add. Every member of a stack is an asset
// of its own unless --covers-only asks for the app's view, where a stack
// is one asset, its cover.
func AssetFilterFlags() []cli.Flag {
	return []cli.Flag{
		LibraryFlag(),
		&cli.StringSliceFlag{Name: "id", Usage: "only these asset `ID`s (repeat or comma-separate; at most 100)"},
		&cli.StringFlag{Name: "after", Usage: "captured at or after `TIME` (2024-05-01, 2024-05-01T12:00:00 or with an offset)"},
		&cli.StringFlag{Name: "before", Usage: "captured before `TIME` (same forms as --after)"},
		&cli.StringFlag{Name: "center", Usage: "within --radius of `LON,LAT`"},
		&cli.Float64Flag{Name: "radius", Usage: "radius in `METRES` around --center"},
		&cli.StringFlag{Name: "bbox", Usage: "inside the box `MIN_LON,MIN_LAT,MAX_LON,MAX_LAT`"},
		&cli.StringFlag{Name: "stack", Usage: "the members of stack `ID`"},
		&cli.StringFlag{Name: "media-type", Usage: "`image` or video only"},
		&cli.IntFlag{Name: "min-rating", Usage: "rated at least `N` (0-5)", Value: -1, DefaultText: "any"},
		&cli.StringFlag{Name: "state", Usage: "`live` (default), trashed or all"},
		&cli.StringFlag{Name: "order", Usage: "`desc` (newest first, default) or asc, by capture time"},
		&cli.BoolFlag{Name: "covers-only", Usage: "a stack is one asset, its cover, as in the app (default: every member)"},
	}
}

// AssetFilter is what the filter flags asked for, read before connecting:
// the query, and the library as given (an id, a name or none), which
// Resolve turns into the query's LibraryID once connected.
type AssetFilter struct {
	Library string
	// Query is the filter without its LibraryID.
	Query client.AssetQuery
	// Set says whether any filter flag was given (HasAssetFilter).
	Set bool
}

// ParseAssetFilter reads the filter flags of c's command.
func ParseAssetFilter(c *cli.Context) AssetFilter {
	q := client.AssetQuery{IDs: SplitList(c.StringSlice("id")), After: c.String("after"),
		Before: c.String("before"), Center: c.String("center"), Radius: c.Float64("radius"), BBox: c.String("bbox"),
		StackID: c.String("stack"), MediaType: c.String("media-type"), State: c.String("state"), Order: c.String("order"),
		Stacks: "expand"}
	if c.Bool("covers-only") {
		q.Stacks = "collapse"
	}
	if n := c.Int("min-rating"); n >= 0 {
		q.MinRating = &n
	}
	return AssetFilter{Library: c.String("library"), Query: q, Set: HasAssetFilter(c)}
}

// Resolve returns the query with the library resolved to an id
// (ResolveLibrary).
func (f AssetFilter) Resolve(ctx context.Context, conn *APIConn) (client.AssetQuery, error) {
	lib, err := ResolveLibrary(ctx, conn, f.Library)
	if err != nil {
		return client.AssetQuery{}, err
	}
	return f.In(lib), nil
}

// In returns the query in library lib, an id resolved already.
func (f AssetFilter) In(lib string) client.AssetQuery {
	q := f.Query
	q.LibraryID = lib
	return q
}

// HasAssetFilter reports whether any filter flag was given (--covers-only
// and --order only shape what the filters select).
func HasAssetFilter(c *cli.Context) bool {
	for _, name := range []string{"id", "after", "before", "center", "bbox", "stack", "media-type", "min-rating", "state"} {
		if c.IsSet(name) {
			return true
		}
	}
	return false
}
