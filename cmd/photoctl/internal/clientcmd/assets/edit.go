package assets

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// editFields are the fields an edit can change, as --clear names them.
var editFields = []string{"rating", "description", "location", "datetime"}

// editFlags set the fields of an edit; bulk-edit applies them to every
// asset a filter selects.
func editFlags() []cli.Flag {
	return []cli.Flag{
		&cli.IntFlag{Name: "rating", Usage: "set the rating to `N` (0-5)"},
		&cli.StringFlag{Name: "description", Usage: "set the description to `TEXT`"},
		&cli.Float64Flag{Name: "latitude", Usage: "set the latitude to `DEGREES` (with --longitude)"},
		&cli.Float64Flag{Name: "longitude", Usage: "set the longitude to `DEGREES` (with --latitude)"},
		&cli.StringFlag{Name: "datetime", Usage: "set the capture time to `TIME` (RFC 3339, with or without an offset)"},
		&cli.StringSliceFlag{Name: "clear", Usage: "drop your value of `FIELD` so the file's shows again: " + strings.Join(editFields, ", ")},
	}
}

// changeFromFlags builds the change the edit flags describe.
func changeFromFlags(c *cli.Context) (api.AssetChange, error) {
	var ch api.AssetChange
	if c.IsSet("rating") {
		n := c.Int("rating")
		ch.Rating = api.Optional[int]{Set: true, Value: &n}
	}
	if c.IsSet("description") {
		d := c.String("description")
		ch.Description = api.Optional[string]{Set: true, Value: &d}
	}
	if c.IsSet("latitude") != c.IsSet("longitude") {
		return ch, cmdutil.UsageErrorf(c, "--latitude and --longitude go together")
	}
	if c.IsSet("latitude") {
		lat, lon := c.Float64("latitude"), c.Float64("longitude")
		ch.Latitude = api.Optional[float64]{Set: true, Value: &lat}
		ch.Longitude = api.Optional[float64]{Set: true, Value: &lon}
	}
	if c.IsSet("datetime") {
		t := c.String("datetime")
		ch.OriginalDatetime = api.Optional[string]{Set: true, Value: &t}
	}
	for _, f := range cmdutil.SplitList(c.StringSlice("clear")) {
		if !slices.Contains(editFields, f) {
			return ch, cmdutil.UsageErrorf(c, "--clear %q: want one of %s", f, strings.Join(editFields, ", "))
		}
		if f == "datetime" { // --datetime's name for the capture time
			f = "original_datetime"
		}
		ch.Clear(f)
	}
	if !changes(ch) {
		return ch, cmdutil.UsageErrorf(c, "nothing to change: give --rating, --description, --latitude/--longitude, --datetime or --clear")
	}
	return ch, nil
}

// changes reports whether ch sets any field.
func changes(ch api.AssetChange) bool {
	return slices.Contains([]bool{ch.Rating.Set, ch.Description.Set, ch.Latitude.Set, ch.Longitude.Set, ch.OriginalDatetime.Set}, true)
}

// EditOptions are what `photoctl edit` was asked for: the asset and the
// change to make.
type EditOptions struct {
	cmdutil.ClientOptions

	ID     string
	Change api.AssetChange
}

// NewCmdEdit returns `photoctl edit`; runF, when not nil, gets the parsed
// options instead of runEdit (tests).
var NewCmdEdit = cmdutil.Constructor(cmdutil.Command[EditOptions]{
	Name:      "edit",
	Usage:     "Edit an asset's rating, description, location or capture time",
	ArgsUsage: "ID",
	Description: `Changes your values of an asset's metadata; the file's own values are kept
underneath, and --clear brings them back. Prints the asset as 'get' does.

Example:
   photoctl edit asset_01hx... --rating 5 --description "First day of school"
   photoctl edit asset_01hx... --latitude 48.8584 --longitude 2.2945
   photoctl edit asset_01hx... --datetime 2019-07-14T21:30:00+02:00
   photoctl edit asset_01hx... --clear rating --clear location`,
	Flags: editFlags(),
	JSON:  true,
	Args:  cmdutil.ExactlyOne("want exactly one argument, the asset id"),
	Parse: func(c *cli.Context, args []string, opts *EditOptions) (err error) {
		opts.ID = args[0]
		opts.Change, err = changeFromFlags(c)
		return err
	},
	Run: runEdit,
})

func runEdit(ctx context.Context, conn *cmdutil.APIConn, opts *EditOptions) error {
	a, err := conn.UpdateAsset(ctx, opts.ID, opts.Change)
	if err != nil {
		return fmt.Errorf("edit %s: %w", opts.ID, err)
	}
	if opts.JSON {
		return cmdutil.PrintJSON(opts.IO.Out, a)
	}
	return cmdutil.PrintFields(opts.IO, assetFields(a))
}
