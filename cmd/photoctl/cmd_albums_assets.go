package main

import (
	"errors"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
)

// newAlbumAssetsCommand returns `photoctl albums add` or `albums remove`.
// add also takes the asset filter flags and adds every asset they select.
func newAlbumAssetsCommand(name string) *cli.Command {
	usage, description := "Add assets to an album", `Adds live assets of the album's library; assets already in it stay as they
are. An asset that is unknown, in another library or in the trash refuses
its batch of 100 (exit 2). Asset ids come from the arguments, from standard
input with "-" (ids, or the JSON that ls --json prints), or from the filter
flags (not both ids and filters).

Filters add every matching asset: each member of a stack, or with
--covers-only only each stack's cover, as photoctl ls shows them.

Example:
   photoctl albums add "Summer 2024" asset_01hx... asset_01hy...
   photoctl albums add --after 2024-07-01 --before 2024-09-01 "Summer 2024"
   photoctl ls --after 2024-07-01 --all --json | jq -r '.[].id' | photoctl albums add "Summer 2024" -`
	flags := append(append(cmdutil.ClientFlags(), cmdutil.AssetFilterFlags()...), cmdutil.JSONFlag())
	call := (*cmdutil.APIConn).AddAlbumAssets
	least, want := 1, "want the album, and asset ids (or - to read them from stdin) or filters"
	if name == "remove" {
		usage, description = "Remove assets from an album", `Removes assets from an album (ids not in it are ignored); the assets stay in
the library. Asset ids come from the arguments, or from standard input with
"-".

Example:
   photoctl albums remove "Summer 2024" asset_01hx...`
		flags = append(cmdutil.ClientFlags(), libraryFlag(), cmdutil.JSONFlag())
		call = (*cmdutil.APIConn).RemoveAlbumAssets
		least, want = 2, "want the album and at least one asset id (or - to read them from stdin)"
	}
	argsUsage := "ALBUM ASSET... | ALBUM -"
	if name == "add" {
		argsUsage += " | ALBUM FILTER..."
	}
	return &cli.Command{
		Name:        name,
		Usage:       usage,
		ArgsUsage:   argsUsage,
		Description: description,
		Flags:       flags,
		Action: cmdutil.ClientAction(least, -1, want, func(c *cli.Context, conn *cmdutil.APIConn, args []string) error {
			filtered := name == "add" && cmdutil.HasAssetFilter(c)
			switch {
			case filtered && len(args) > 1:
				return cmdutil.UsageErrorf(c, "give asset ids or filters, not both")
			case !filtered && len(args) < 2:
				return cmdutil.UsageErrorf(c, "%s", want)
			}
			id, err := resolveAlbum(c, conn, args[0])
			if err != nil {
				return err
			}
			var ids []string
			if filtered {
				ids, err = filteredIDs(c, conn)
			} else {
				ids, err = idsOrStdin(c, args[1:])
			}
			if err != nil {
				return err
			}
			a, err := call(conn, c.Context, id, ids)
			if err != nil {
				return err
			}
			if filtered {
				return cmdutil.PrintDone(cmdutil.NewStreams(c), c.Bool("json"), a, "Matched %d asset(s); album %s (%s) now holds %d asset(s).",
					len(ids), a.ID, a.Name, a.AssetCount)
			}
			return cmdutil.PrintDone(cmdutil.NewStreams(c), c.Bool("json"), a, "Album %s (%s) now holds %d asset(s).", a.ID, a.Name, a.AssetCount)
		}),
	}
}

// filteredIDs lists the ids of every asset the filter flags select; none
// is an error.
func filteredIDs(c *cli.Context, conn *cmdutil.APIConn) ([]string, error) {
	q, err := cmdutil.AssetQuery(c, conn)
	if err != nil {
		return nil, err
	}
	var ids []string
	for a, err := range conn.Assets(c.Context, q, 0) {
		if err != nil {
			return nil, err
		}
		ids = append(ids, a.ID)
	}
	if len(ids) == 0 {
		return nil, errors.New("no assets match the filter; nothing to add")
	}
	return ids, nil
}
