package main

import (
	"os"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/tui"
)

// newTUICommand returns `photoctl tui`.
func newTUICommand() *cli.Command {
	return &cli.Command{
		Name:  "tui",
		Usage: "Browse, search and organize a library in the terminal",
		Description: `Opens a full-screen browser on a library: a timeline by month, albums,
people, search, the trash, the task queue and a library switcher (keys 1-7 or
tab). Asset lists load a page at a time as the cursor moves; beside them are
the metadata and a preview of the thumbnail (Kitty or iTerm2 graphics where
the terminal has them, coloured half blocks otherwise, text with NO_COLOR).

Keys: space selects several assets (an action then goes as one bulk
request), r then 0-5 rates, e edits the description, a adds to an album,
d trashes and u restores (both ask first), o opens the original in the system
viewer (or shows its URL when none is installed), s saves it (to
--download-dir), / searches, ? lists every key, q quits. The detail pane names
the asset's stack, albums, people and place; the Tasks view counts the queue
of every library you can read. Colours follow the terminal's background when
it says which (else dark); nothing waits for its answer.

Example:
   photoctl tui
   photoctl tui --library "Family" --download-dir ~/Downloads`,
		Flags: append(cmdutil.ClientFlags(), libraryFlag(),
			&cli.StringFlag{Name: "download-dir", Usage: "save downloads in `DIR` (default: the working directory)"}),
		Action: cmdutil.ClientAction(0, 0, "", func(c *cli.Context, conn *cmdutil.APIConn, _ []string) error {
			if !cmdutil.IsTerminal(c.App.Reader) || !cmdutil.IsTerminal(c.App.Writer) {
				return cmdutil.UsageErrorf(c, "photoctl tui needs a terminal (use ls, search and friends in scripts)")
			}
			lib, err := cmdutil.ResolveLibrary(c.Context, conn, c.String("library"))
			if err != nil {
				return err
			}
			return tui.Run(c.Context, tui.Options{Client: conn.Client, LibraryID: lib,
				Graphics: tui.DetectGraphics(os.Getenv), DownloadDir: c.String("download-dir"),
				TaskRefresh: 2 * time.Second}, c.App.Reader, c.App.Writer)
		}),
	}
}
