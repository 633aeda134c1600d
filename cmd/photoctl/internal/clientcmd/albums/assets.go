package albums

import (
	"context"
	"errors"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
)

// AssetsOptions are what `photoctl albums add` or `albums remove` was
// asked for: the album (an id or a name in Library) and the assets, given
// as ids (or "-") or, for add, selected by the filter flags.
type AssetsOptions struct {
	cmdutil.ClientOptions

	Library, Album string
	// Assets are the ids given after the album, or "-"; none with Filter.
	Assets cmdutil.IDArgs
	// Filter is the asset filter of add, nil when ids were given; its
	// LibraryID is Library's, resolved once connected.
	Filter *client.AssetQuery
	// Remove is albums remove; else albums add.
	Remove bool
}

// wantAdd and wantRemove are what add and remove say when their
// arguments are off.
const (
	wantAdd    = "want the album, and asset ids (or - to read them from stdin) or filters"
	wantRemove = "want the album and at least one asset id (or - to read them from stdin)"
)

// NewCmdAdd returns `photoctl albums add`, which also takes the asset
// filter flags and adds every asset they select; runF, when not nil, gets
// the parsed options instead of runAssets (tests).
var NewCmdAdd = cmdutil.Constructor(cmdutil.Command[AssetsOptions]{
	Name:      "add",
	Usage:     "Add assets to an album",
	ArgsUsage: "ALBUM ASSET... | ALBUM - | ALBUM FILTER...",
	Description: `Adds live assets of the album's library; assets already in it stay as they
are. An asset that is unknown, in another library or in the trash refuses
its batch of 100 (exit 2). Asset ids come from the arguments, from standard
input with "-" (ids, or the JSON that ls --json prints), or from the filter
flags (not both ids and filters).

Filters add every matching asset: each member of a stack, or with
--covers-only only each stack's cover, as photoctl ls shows them.

Example:
   photoctl albums add "Summer 2024" asset_01hx... asset_01hy...
   photoctl albums add --after 2024-07-01 --before 2024-09-01 "Summer 2024"
   photoctl ls --after 2024-07-01 --all --json | jq -r '.[].id' | photoctl albums add "Summer 2024" -`,
	Flags: cmdutil.AssetFilterFlags(),
	JSON:  true,
	Args:  cmdutil.AtLeastOne(wantAdd),
	Parse: parseAssets(false, wantAdd),
	Run:   runAssets,
})

// NewCmdRemove returns `photoctl albums remove`; runF, when not nil, gets
// the parsed options instead of runAssets (tests).
var NewCmdRemove = cmdutil.Constructor(cmdutil.Command[AssetsOptions]{
	Name:      "remove",
	Usage:     "Remove assets from an album",
	ArgsUsage: "ALBUM ASSET... | ALBUM -",
	Description: `Removes assets from an album (ids not in it are ignored); the assets stay in
the library. Asset ids come from the arguments, or from standard input with
"-".

Example:
   photoctl albums remove "Summer 2024" asset_01hx...`,
	Flags: []cli.Flag{cmdutil.LibraryFlag()},
	JSON:  true,
	Args:  cmdutil.Between(2, -1, wantRemove),
	Parse: parseAssets(true, wantRemove),
	Run:   runAssets,
})

// parseAssets is the Parse of add (remove false) or remove: the album,
// then ids or, for add, filters (want says what is wanted).
func parseAssets(remove bool, want string) func(c *cli.Context, args []string, opts *AssetsOptions) error {
	return func(c *cli.Context, args []string, opts *AssetsOptions) error {
		filtered := !remove && cmdutil.HasAssetFilter(c)
		switch {
		case filtered && len(args) > 1:
			return cmdutil.UsageErrorf(c, "give asset ids or filters, not both")
		case !filtered && len(args) < 2:
			return cmdutil.UsageErrorf(c, "%s", want)
		}
		opts.Library, opts.Album, opts.Remove = c.String("library"), args[0], remove
		if filtered {
			q := cmdutil.ParseAssetFilter(c).Query
			opts.Filter = &q
		} else {
			opts.Assets = cmdutil.NewIDArgs(c, opts.IO.In, args[1:])
		}
		return nil
	}
}

func runAssets(ctx context.Context, conn *cmdutil.APIConn, opts *AssetsOptions) error {
	library := opts.Library
	if opts.Filter != nil { // the filter needs the library's id: look it up once for both
		lib, err := cmdutil.ResolveLibrary(ctx, conn, library)
		if err != nil {
			return err
		}
		library = lib
	}
	id, err := cmdutil.ResolveAlbum(ctx, conn, library, opts.Album)
	if err != nil {
		return err
	}
	var ids []string
	if opts.Filter != nil {
		ids, err = filteredIDs(ctx, conn, library, *opts.Filter)
	} else {
		ids, err = opts.Assets.IDs()
	}
	if err != nil {
		return err
	}
	call := (*cmdutil.APIConn).AddAlbumAssets
	if opts.Remove {
		call = (*cmdutil.APIConn).RemoveAlbumAssets
	}
	a, err := call(conn, ctx, id, ids)
	if err != nil {
		return err
	}
	if opts.Filter != nil {
		return cmdutil.PrintDone(opts.IO, opts.JSON, a, "Matched %d asset(s); album %s (%s) now holds %d asset(s).",
			len(ids), a.ID, a.Name, a.AssetCount)
	}
	return cmdutil.PrintDone(opts.IO, opts.JSON, a, "Album %s (%s) now holds %d asset(s).", a.ID, a.Name, a.AssetCount)
}

// filteredIDs lists the ids of every asset q selects in library lib (an
// id); none is an error.
func filteredIDs(ctx context.Context, conn *cmdutil.APIConn, lib string, q client.AssetQuery) ([]string, error) {
	q.LibraryID = lib
	var ids []string
	for a, err := range conn.Assets(ctx, q, 0) {
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
