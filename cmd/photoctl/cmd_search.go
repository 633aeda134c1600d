package main

import (
	"path/filepath"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// newSearchCommand returns `photoctl search`.
func newSearchCommand() *cli.Command {
	return &cli.Command{
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
		Flags: append(append(cmdutil.ClientFlags(), libraryFlag(),
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
			&cli.StringFlag{Name: "state", Usage: "`live` (default), trashed or all"}),
			append(cmdutil.LimitFlags("assets"), cmdutil.JSONFlag())...),
		Action: cmdutil.ClientAction(0, -1, "",
			func(c *cli.Context, conn *cmdutil.APIConn, words []string) error {
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
				q, err := searchQuery(c, conn, text)
				if err != nil {
					return err
				}
				q.PageSize = cmdutil.PageSizeFor(limit)
				hits := conn.Search(c.Context, q)
				if path := c.String("image"); path != "" {
					part, err := client.PathPart(path, filepath.Base(path))
					if err != nil {
						return cmdutil.UsageErrorf(c, "--image: %v", err)
					}
					hits = conn.SearchImage(c.Context, q, part)
				}
				found, more, err := cmdutil.Take(hits, limit)
				if err != nil {
					return err
				}
				s := cmdutil.NewStreams(c)
				if err := cmdutil.PrintList(s, c.Bool("json"), found,
					[]string{"ID", "SCORE", "TAKEN", "TYPE", "SIZE", "RATING", "PLACE", "NAME"}, func(h api.SearchHit) []string {
						row := assetRow(&h.Asset)
						return append([]string{row[0], strconv.FormatFloat(h.Score, 'f', 3, 64)}, row[1:]...)
					}); err != nil {
					return err
				}
				return cmdutil.PrintMoreHint(s, c.Bool("json"), more, len(found), "hits")
			}),
	}
}

// searchQuery reads the search flags, with text the words to look for;
// the library, album and people are
// resolved to ids.
func searchQuery(c *cli.Context, conn *cmdutil.APIConn, text string) (client.SearchQuery, error) {
	lib, err := cmdutil.ResolveLibrary(c.Context, conn, c.String("library"))
	if err != nil {
		return client.SearchQuery{}, err
	}
	q := client.SearchQuery{Query: text, LibraryID: lib, After: c.String("after"),
		Before: c.String("before"), Center: c.String("center"), Radius: c.Float64("radius"), BBox: c.String("bbox"),
		MediaType: c.String("media-type"), State: c.String("state")}
	if c.String("album") != "" {
		if q.AlbumID, err = cmdutil.ResolveAlbum(c.Context, conn, c.String("library"), c.String("album")); err != nil {
			return q, err
		}
	}
	q.PersonIDs, err = cmdutil.FetchEach(cmdutil.SplitList(c.StringSlice("person")), func(p string) (string, error) {
		return cmdutil.ResolvePerson(c.Context, conn, c.String("library"), p)
	})
	return q, err
}
