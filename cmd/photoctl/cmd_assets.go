package main

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// ListOptions is what `photoctl ls` needs once its flags are parsed.
type ListOptions struct {
	Query client.AssetQuery
	Limit int // 0: all
	JSON  bool
	IO    *cmdutil.Streams
}

// newListCommand returns `photoctl ls` (also `photoctl assets list`).
func newListCommand(name string, aliases ...string) *cli.Command {
	return &cli.Command{
		Name:    name,
		Aliases: aliases,
		Usage:   "List assets, newest first, with filters",
		Description: `Lists the assets of a library: by default the 50 most recently captured
live ones (a line on standard error says when more match; --all or --limit
shows them). Filters combine. Capture-time bounds are both without an offset
(wall clock) or both with one; --after is inclusive, --before exclusive.
With --json the output is a JSON array of the API's Asset records.

Every member of a stack (a burst, or one made with photoctl stacks) is
listed as an asset of its own, so that a pipeline into trash, albums add or
bulk-edit acts on all of them. The STACK column shows "+N" on a stack's
cover (N other members), "in stack" on its other members and "-" outside
stacks. --covers-only lists a stack as one asset, its cover, as the app's
timeline does. The PLACE column names where a photo with a GPS position was
taken: the nearest town, else the state or country ("-" for none).

Example:
   photoctl ls --after 2024-05-01 --before 2024-06-01 --media-type image
   photoctl ls --bbox 2.2,48.8,2.5,48.9 --all --json | jq -r '.[].id'
   photoctl ls --covers-only --all
   photoctl ls --state trashed --library "Family archive"`,
		Flags: append(append(cmdutil.ClientFlags(), cmdutil.AssetFilterFlags()...),
			&cli.IntFlag{Name: "limit", Aliases: []string{"n"}, Value: 50, Usage: "show at most `N` assets"},
			&cli.BoolFlag{Name: "all", Usage: "show every matching asset (pages through them all)"},
			cmdutil.JSONFlag()),
		Action: func(c *cli.Context) error {
			if err := cmdutil.NoArgs(c); err != nil {
				return err
			}
			conn, err := cmdutil.Connect(c, true)
			if err != nil {
				return err
			}
			q, err := cmdutil.AssetQuery(c, conn)
			if err != nil {
				return err
			}
			limit := c.Int("limit")
			if c.Bool("all") {
				limit = 0
			} else if limit <= 0 {
				return cmdutil.UsageErrorf(c, "--limit must be at least 1 (or use --all)")
			}
			return runList(c.Context, conn, &ListOptions{Query: q, Limit: limit, JSON: c.Bool("json"), IO: cmdutil.NewStreams(c)})
		},
	}
}

func runList(ctx context.Context, conn *cmdutil.APIConn, opts *ListOptions) error {
	pageSize := cmdutil.PageSizeFor(opts.Limit)
	out := &cmdutil.JSONArray{W: opts.IO.Out}
	var assets []api.Asset
	n, more := 0, false
	for a, err := range conn.Assets(ctx, opts.Query, pageSize) {
		if err != nil {
			if opts.JSON && out.Count > 0 {
				_ = out.Close()
			}
			return err
		}
		if opts.Limit > 0 && n == opts.Limit {
			more = true
			break
		}
		n++
		if !opts.JSON {
			assets = append(assets, a)
		} else if err := out.Add(a); err != nil {
			return err
		}
	}
	if opts.JSON {
		return out.Close()
	}
	if len(assets) == 0 {
		_, err := fmt.Fprintln(opts.IO.Err, "No assets match.")
		return err
	}
	rows := make([][]string, len(assets))
	for i := range assets {
		rows[i] = lsRow(&assets[i])
	}
	if err := cmdutil.PrintTable(opts.IO, []string{"ID", "TAKEN", "TYPE", "SIZE", "RATING", "STACK", "PLACE", "NAME"}, rows); err != nil {
		return err
	}
	return cmdutil.PrintMoreHint(opts.IO, false, more, n, "assets")
}

// assetRow is an asset in the ls and search tables.
func assetRow(a *api.Asset) []string {
	rating := "-"
	if a.Metadata.Rating != nil {
		rating = strconv.Itoa(int(*a.Metadata.Rating))
	}
	name := a.OriginalFileName
	if a.TrashedAt != nil {
		name += " (trashed)"
	}
	return []string{a.ID, takenAt(a), cmdutil.OrDash(a.MediaType), cmdutil.HumanBytes(a.FileSizeBytes), rating, placeCell(a), name}
}

// placeCell is the PLACE column of the ls and search tables: the most
// specific place name the geocoder found (the nearest town, else the
// state or country), "-" for none.
func placeCell(a *api.Asset) string {
	return cmdutil.OrDash(cmdutil.Deref(a.Metadata.PlaceName))
}

// takenAt shortens local_datetime to minutes: 2024-05-01 12:30.
func takenAt(a *api.Asset) string {
	t := strings.Replace(a.LocalDatetime, "T", " ", 1)
	if len(t) >= 16 {
		return t[:16]
	}
	return cmdutil.OrDash(t)
}

// newGetCommand returns `photoctl get`.
func newGetCommand() *cli.Command {
	return &cli.Command{
		Name:      "get",
		Usage:     "Show assets in full",
		ArgsUsage: "ID...",
		Description: `Prints the main fields of each asset, with the text OCR read in it, or with
--json the API's record of one asset (an Asset with ocr_text; one object for
one id, an array for several).

Example:
   photoctl get asset_01hx...
   photoctl get asset_01hx... --json | jq .metadata`,
		Flags: append(cmdutil.ClientFlags(), cmdutil.JSONFlag()),
		Action: func(c *cli.Context) error {
			ids := c.Args().Slice()
			if len(ids) == 0 {
				return cmdutil.UsageErrorf(c, "give at least one asset id")
			}
			conn, err := cmdutil.Connect(c, true)
			if err != nil {
				return err
			}
			io := cmdutil.NewStreams(c)
			assets, err := cmdutil.FetchEach(ids, func(id string) (*api.AssetDetail, error) { return conn.AssetDetail(c.Context, id) })
			if err != nil {
				return err
			}
			return cmdutil.PrintRecords(io, c.Bool("json"), assets, detailFields)
		},
	}
}

// detailFields are the label/value lines of `photoctl get`: assetFields,
// and the text OCR read (its lines joined by " / ") after the description.
func detailFields(d *api.AssetDetail) [][]string {
	rows := assetFields(&d.Asset)
	text := strings.Join(strings.Fields(strings.ReplaceAll(cmdutil.Deref(d.OCRText), "\n", " / ")), " ")
	if text == "" {
		return rows
	}
	at := slices.IndexFunc(rows, func(r []string) bool { return r[0] == "library" })
	return slices.Insert(rows, at, []string{"text", text})
}

// assetFields are the label/value lines of an asset (`photoctl get`,
// `photoctl edit`).
func assetFields(a *api.Asset) [][]string {
	m := a.Metadata
	rows := [][]string{
		{"id", a.ID}, {"name", a.OriginalFileName}, {"type", a.MediaType + " (" + a.MIMEType + ")"},
		{"taken", cmdutil.OrDash(a.LocalDatetime)}, {"size", cmdutil.HumanBytes(a.FileSizeBytes)},
	}
	if a.Width != nil && a.Height != nil {
		rows = append(rows, []string{"dimensions", fmt.Sprintf("%d×%d", *a.Width, *a.Height)})
	}
	if m.Make != nil || m.Model != nil {
		rows = append(rows, []string{"camera", client.CameraName(cmdutil.Deref(m.Make), cmdutil.Deref(m.Model))})
	}
	if m.Latitude != nil && m.Longitude != nil {
		place := fmt.Sprintf("%.6f, %.6f", *m.Latitude, *m.Longitude)
		if label := cmp.Or(cmdutil.Deref(m.DisplayLabel), cmdutil.Deref(m.PlaceName)); label != "" {
			place += " (" + label + ")"
		}
		rows = append(rows, []string{"location", place})
	}
	if m.Rating != nil {
		rows = append(rows, []string{"rating", strconv.Itoa(int(*m.Rating))})
	}
	if m.Description != nil {
		rows = append(rows, []string{"description", *m.Description})
	}
	rows = append(rows, []string{"library", a.LibraryID}, []string{"checksum", a.Checksum})
	if a.TrashedAt != nil {
		rows = append(rows, []string{"trashed", a.TrashedAt.Local().Format("2006-01-02 15:04")})
	}
	return rows
}
