// Package tui holds `photoctl tui`, the command that opens the terminal
// browser (the tui package at the repository's root) on a library. As
// every client command it is an Options struct, a NewCmdTUI(f, runF) that
// parses the command line into it, and a runTUI that does the work.
package tui

import (
	"context"
	"errors"
	"os"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	browser "github.com/photoctl/photoctl/tui"
)

// Options are what `photoctl tui` was asked for.
type Options struct {
	cmdutil.ClientOptions

	// Library is an id or a name, looked up once connected; "" for the
	// default.
	Library     string
	DownloadDir string
	// help names the command whose --help the no-terminal error points
	// at: that check comes after connecting, as it always did.
	help string
}

// NewCmdTUI returns `photoctl tui`; runF, when not nil, gets the parsed
// options instead of runTUI (tests).
var NewCmdTUI = cmdutil.Constructor(cmdutil.Command[Options]{
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
	Flags: []cli.Flag{
		cmdutil.LibraryFlag(),
		&cli.StringFlag{Name: "download-dir", Usage: "save downloads in `DIR` (default: the working directory)"},
	},
	Parse: func(c *cli.Context, _ []string, opts *Options) error {
		opts.Library, opts.DownloadDir, opts.help = c.String("library"), c.String("download-dir"), c.Command.HelpName
		return nil
	},
	Run: runTUI,
})

func runTUI(ctx context.Context, conn *cmdutil.APIConn, opts *Options) error {
	if !cmdutil.IsTerminal(opts.IO.In) || !cmdutil.IsTerminal(opts.IO.Out) {
		return &cmdutil.UsageError{Err: errors.New("photoctl tui needs a terminal (use ls, search and friends in scripts)"),
			Help: opts.help}
	}
	lib, err := cmdutil.ResolveLibrary(ctx, conn, opts.Library)
	if err != nil {
		return err
	}
	return browser.Run(ctx, browser.Options{Client: conn.Client, LibraryID: lib,
		Graphics: browser.DetectGraphics(os.Getenv), DownloadDir: opts.DownloadDir,
		TaskRefresh: 2 * time.Second}, opts.IO.In, opts.IO.Out)
}
