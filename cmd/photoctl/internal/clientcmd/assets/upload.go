package assets

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/client/importer"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
)

// UploadOptions are what `photoctl upload` was asked for.
type UploadOptions struct {
	cmdutil.ClientOptions
	cmdutil.InLibrary

	// Import is the import to run; its LibraryID is Library resolved
	// once connected.
	Import  importer.Options
	Verbose bool
	// OnlyFolders are the folder arguments that, without --recursive, hold
	// nothing but folders (onlyFolders).
	OnlyFolders []string
	// Help names the command whose help the usage errors found once
	// connected point at (a bad glob; only folders).
	Help string
}

var uploadCmd = cmdutil.Command[UploadOptions]{
	Name:      "upload",
	Usage:     "Upload photos and videos from files and folders (also: photoctl import)",
	ArgsUsage: "PATH...",
	Description: `Uploads the photos and videos among PATHs (files, or folders with
--recursive for their subfolders too), with their XMP sidecars (IMG_1.JPG.xmp
or IMG_1.xmp). Hidden files and folders are passed over.

Every file is hashed (SHA-256) and the server is asked which checksums the
library already holds, so duplicates are never sent. Checksums are kept in
an index under $XDG_CACHE_HOME/photoctl keyed by path, size and modification
time, so running the same upload again over an unchanged folder reads no
file. Interrupting (Ctrl-C) is safe: run the same command again to resume.

--include and --exclude take globs matched against the path below the folder
argument or the bare file name (case ignored; ** crosses folders).

--album NAME puts every file, new or already in the library, into that album
(found by name, made if missing); --album-from-folder puts each into an album
named after the folder holding it.

The summary counts new, duplicate, skipped and failed files, with reasons.
The exit status is 3 when some files failed and others went through, 1 when
nothing could be uploaded. -q (--quiet) leaves out the progress bar and the
summary: only failures are printed, on standard error.

A folder given without --recursive that holds only folders (a camera's
DCIM, say) uploads nothing: when no PATH gave any file, that is a usage
error (exit status 2, with a hint to use -r; --json still prints its
empty summary); otherwise a note on standard error names the folder.

Example:
   photoctl upload --recursive ~/Pictures/2024
   photoctl import -r /mnt/card/DCIM --exclude '*.MOV' -j 8 --library "Family archive"
   photoctl upload -r . --include '**/export/*.jpg' --dry-run
   photoctl upload -r --album-from-folder ~/Pictures/Trips
   photoctl upload -r ~/Pictures --json | jq '.files[] | select(.status == "failed")'
   photoctl upload -r -q ~/Pictures/2024 || echo "some files failed"`,
	Flags: []cli.Flag{
		&cli.BoolFlag{Name: "recursive", Aliases: []string{"r"}, Usage: "descend into subfolders"},
		&cli.StringSliceFlag{Name: "include", Usage: "upload only files matching `GLOB` (repeatable)"},
		&cli.StringSliceFlag{Name: "exclude", Usage: "pass over files and folders matching `GLOB` (repeatable)"},
		cmdutil.LibraryFlag(),
		&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Value: 4, Usage: "hash and upload `N` files at once"},
		&cli.StringFlag{Name: "album", Usage: "add every file (new or already there) to the album `NAME`, made if missing"},
		&cli.BoolFlag{Name: "album-from-folder", Usage: "add each file to an album named after its folder"},
		&cli.BoolFlag{Name: "dry-run", Usage: "hash and check, but upload nothing"},
		&cli.BoolFlag{Name: "no-index", Usage: "do not read or write the checksum index"},
		&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "list every file with its outcome"},
		cmdutil.QuietFlag(),
	},
	JSON: true,
	Args: cmdutil.AtLeastOne("give at least one file or folder"),
	Parse: func(c *cli.Context, paths []string, opts *UploadOptions) error {
		if c.Int("jobs") < 1 || c.Int("jobs") > 64 {
			return cmdutil.UsageErrorf(c, "--jobs must be from 1 to 64")
		}
		if c.Bool("quiet") && c.Bool("verbose") {
			return cmdutil.UsageErrorf(c, "--quiet and --verbose do not go together")
		}
		opts.Verbose, opts.Help = c.Bool("verbose"), c.Command.HelpName
		opts.Import = importer.Options{Paths: paths, Recursive: c.Bool("recursive"),
			Include: c.StringSlice("include"), Exclude: c.StringSlice("exclude"),
			Jobs: c.Int("jobs"), DryRun: c.Bool("dry-run"), DeviceID: deviceID(),
			Album: c.String("album"), AlbumFromFolder: c.Bool("album-from-folder")}
		if !opts.Import.Recursive {
			opts.OnlyFolders = onlyFolders(paths)
		}
		if !c.Bool("no-index") {
			if dir := cmdutil.XDGDir("XDG_CACHE_HOME", ".cache"); dir != "" {
				opts.Import.CacheDir = filepath.Join(dir, "photoctl")
			}
		}
		return nil
	},
	Run: runUpload,
}

// NewCmdUpload returns `photoctl upload`, or under another name the
// hidden synonym `photoctl import`; runF, when not nil, gets the parsed
// options instead of runUpload (tests).
func NewCmdUpload(f *cmdutil.Factory, name string, runF func(*UploadOptions) error) *cli.Command {
	return cmdutil.New(f, synonym(uploadCmd, name), runF)
}

// runUpload resolves the library and runs the import; what the import
// refuses (a bad glob, folders of folders only) is a usage error.
func runUpload(ctx context.Context, conn *cmdutil.APIConn, opts *UploadOptions) (err error) {
	opts.Import.LibraryID = opts.LibraryID
	im, err := importer.New(conn.Client, opts.Import)
	if err != nil {
		return &cmdutil.UsageError{Err: err, Help: opts.Help}
	}
	err = runImport(ctx, im, opts)
	if errors.Is(err, errOnlyFolders) {
		return &cmdutil.UsageError{Err: err, Help: opts.Help}
	}
	return err
}

// deviceID names this machine to the server.
func deviceID() string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "unknown"
	}
	return "photoctl@" + host
}

// runImport runs the import with a progress bar on a terminal, Ctrl-C
// ending it cleanly, and prints the summary.
func runImport(ctx context.Context, im *importer.Importer, opts *UploadOptions) error {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		stop() // a second Ctrl-C ends the process at once
	}()
	var bar *uploadBar
	if opts.IO.Progress {
		bar = startUploadBar(im, opts.IO.Err)
	}
	sum, err := im.Run(ctx)
	if bar != nil {
		bar.finish()
	}
	if sum == nil || (err != nil && !errors.Is(err, importer.ErrInterrupted) && uploadTotal(sum) == 0) {
		// Refused before any file (several libraries and none named, say):
		// the error says it all, an empty summary would only hide it.
		return err
	}
	onlyFolders := err == nil && len(opts.OnlyFolders) > 0
	if onlyFolders && uploadTotal(sum) == 0 {
		// Nothing found but folders: a usage error. --json still gets its
		// (empty) summary; a person, only the hint.
		if opts.JSON {
			if perr := printUploadSummary(opts, sum); perr != nil {
				return perr
			}
		}
		return onlyFoldersError(opts.OnlyFolders)
	}
	if perr := printUploadSummary(opts, sum); perr != nil {
		return perr
	}
	if onlyFolders {
		fmt.Fprintf(opts.IO.Err, "Note: %v.\n", onlyFoldersError(opts.OnlyFolders))
	}
	switch {
	case errors.Is(err, importer.ErrInterrupted):
		return errors.New("interrupted; run the same command again to resume")
	case err != nil:
		return err
	case sum.Failed == 0:
		return nil
	case sum.New+sum.Duplicate > 0:
		return fmt.Errorf("%d file(s) failed: %w", sum.Failed, cmdutil.ErrPartialFailure)
	default:
		return fmt.Errorf("%d file(s) failed, none uploaded", sum.Failed)
	}
}
