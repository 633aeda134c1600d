package assets

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// SearchOptions are what `photoctl search` was asked for.
type SearchOptions struct {
	cmdutil.ClientOptions
	cmdutil.InLibrary

	// Query is the search; its LibraryID, AlbumID and PersonIDs are
	// Library, Album and People resolved once connected.
	Query  client.SearchQuery
	Album  string
	People []string
	Image  string // a picture to find assets like
	Limit  int    // 0: all
	// Help names the command whose help a bad --image points at.
	Help string
}

// NewCmdSearch returns `photoctl search`; runF, when not nil, gets the
// parsed options instead of runSearch (tests).
var NewCmdSearch = cmdutil.Constructor(cmdutil.Command[SearchOptions]{
	Name:      "search",
	Usage:     "Search assets by text, album, people, dates or a picture, best match first",
	ArgsUsage: "[QUERY...]",
	Description: `Finds the assets of a library that match: text (the QUERY words, joined
with spaces, or --query; not both) in descriptions, text in pictures,
places, people and album names, file names and cameras; an album; people (all of them in the picture); a capture-time range; or, with
--image, a picture: assets with the same people and similar looks. At least
one of these is needed; --center/--radius, --bbox, --media-type and --state
only narrow. Albums and people are named by id or by name. With --json the
output is a JSON array of the API's Asset records, each with its score.

Every word must match: as typed first, then as the beginning of longer
words ("sun" also finds "sunset", ranked below), or, when nothing holds it,
as a correction one letter off. A word nothing holds matches nothing.
Words that are a place's name ("cape canaveral", "new york") match as a
phrase.

Example:
   photoctl search kyoto temple
   photoctl search --query "kyoto temple"
   photoctl search --person Ann --person Bob --after 2024-01-01
   photoctl search --image ~/Downloads/scan.jpg --limit 5
   photoctl search --album "Summer 2024" --query beach --all --json | jq -r '.[].id'`,
	Flags: append([]cli.Flag{
		cmdutil.LibraryFlag(),
		&cli.StringFlag{Name: "query", Aliases: []string{"q"}, Usage: "look for `TEXT`"},
		&cli.StringFlag{Name: "album", Usage: "only assets of album `ID or NAME`"},
		&cli.StringSliceFlag{Name: "person", Usage: "only assets showing person `ID or NAME` (repeat: all of them)"},
		&cli.StringFlag{Name: "after", Usage: "captured at or after `TIME` (2024-05-01, 2024-05-01T12:00:00 or with an offset)"},
		&cli.StringFlag{Name: "before", Usage: "captured before `TIME` (same forms as --after)"},
		&cli.StringFlag{Name: "image", Usage: "find assets like the picture in `FILE` (JPEG, PNG, GIF or WebP)"},
		&cli.StringFlag{Name: "center", Usage: "within --radius of `LON,LAT`"},
		&cli.Float64Flag{Name: "radius", Usage: "radius in `METRES` around --center"},
		&cli.StringFlag{Name: "bbox", Usage: "inside the box `MIN_LON,MIN_LAT,MAX_LON,MAX_LAT`"},
		&cli.StringFlag{Name: "media-type", Usage: "`image` or video only"},
		&cli.StringFlag{Name: "state", Usage: "`live` (default), trashed or all"},
	}, cmdutil.LimitFlags("assets")...),
	JSON: true,
	Args: cmdutil.Between(0, -1, ""),
	Parse: func(c *cli.Context, words []string, opts *SearchOptions) error {
		limit, err := cmdutil.ListLimit(c)
		if err != nil {
			return err
		}
		text := c.String("query")
		if len(words) > 0 {
			if c.IsSet("query") {
				return cmdutil.UsageErrorf(c, "give the query as words or as --query, not both")
			}
			text = strings.Join(words, " ")
		}
		opts.Album, opts.People = c.String("album"), cmdutil.SplitList(c.StringSlice("person"))
		opts.Image, opts.Limit, opts.Help = c.String("image"), limit, c.Command.HelpName
		opts.Query = client.SearchQuery{Query: text, After: c.String("after"), Before: c.String("before"),
			Center: c.String("center"), Radius: c.Float64("radius"), BBox: c.String("bbox"),
			MediaType: c.String("media-type"), State: c.String("state"), PageSize: cmdutil.PageSizeFor(limit)}
		return nil
	},
	Run: runSearch,
})

func runSearch(ctx context.Context, conn *cmdutil.APIConn, opts *SearchOptions) error {
	q, err := resolveSearch(ctx, conn, opts)
	if err != nil {
		return err
	}
	hits := conn.Search(ctx, q)
	if opts.Image != "" {
		part, err := client.PathPart(opts.Image, filepath.Base(opts.Image))
		if err != nil {
			return &cmdutil.UsageError{Err: fmt.Errorf("--image: %v", err), Help: opts.Help}
		}
		hits = conn.SearchImage(ctx, q, part)
	}
	found, more, err := cmdutil.Take(hits, opts.Limit)
	if err != nil {
		return err
	}
	if err := cmdutil.PrintList(opts.IO, opts.JSON, found,
		[]string{"ID", "SCORE", "TAKEN", "TYPE", "SIZE", "RATING", "PLACE", "NAME"}, func(h api.SearchHit) []string {
			row := assetRow(&h.Asset)
			return append([]string{row[0], strconv.FormatFloat(h.Score, 'f', 3, 64)}, row[1:]...)
		}); err != nil {
		return err
	}
	return cmdutil.PrintMoreHint(opts.IO, opts.JSON, more, len(found), "hits")
}

// resolveSearch is the search with the library, album and people resolved
// to ids.
func resolveSearch(ctx context.Context, conn *cmdutil.APIConn, opts *SearchOptions) (client.SearchQuery, error) {
	q := opts.Query
	q.LibraryID = opts.LibraryID
	var err error
	if opts.Album != "" {
		if q.AlbumID, err = cmdutil.ResolveAlbum(ctx, conn, q.LibraryID, opts.Album); err != nil {
			return q, err
		}
	}
	q.PersonIDs, err = cmdutil.FetchEach(opts.People, func(p string) (string, error) {
		return cmdutil.ResolvePerson(ctx, conn, q.LibraryID, p)
	})
	return q, err
}
