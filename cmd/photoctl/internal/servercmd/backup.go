//go:build !client

package servercmd

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/backup"
)

// BackupOptions is what `photoctl admin backup` and `photoctl admin
// restore` need once their flags are parsed.
type BackupOptions struct {
	Config app.Config
	// Dir is the backup's directory: written by backup, read by restore.
	Dir string
	Report
}

// Report is how backup, restore and copy-blobs report: a progress bar on
// a terminal's standard error, then what they did as one line of JSON
// (--json), nothing (-q) or a summary line.
type Report struct {
	JSON bool
	// Quiet is -q: no progress bar (IO.Progress is false) and no summary.
	Quiet bool
	IO    *cmdutil.Streams // the progress bar on a terminal's Err
}

// reportFlags are --json and -q of the commands that Report.
func reportFlags() []cli.Flag {
	return []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print what was done as JSON"}, cmdutil.QuietFlag()}
}

// newReport returns the Report that c's flags ask for.
func newReport(f *Factory, c *cli.Context) Report {
	return Report{JSON: c.Bool("json"), Quiet: c.Bool("quiet"), IO: f.Streams(c)}
}

// done prints st as JSON, nothing when quiet, else the summary line that
// format makes of args.
func (r Report) done(st any, format string, args ...any) error {
	if r.JSON {
		return json.NewEncoder(r.IO.Out).Encode(st)
	}
	if r.Quiet {
		return nil
	}
	_, err := fmt.Fprintf(r.IO.Out, format, args...)
	return err
}

// NewCmdBackup returns `photoctl admin backup`.
func NewCmdBackup(f *Factory, runF func(*BackupOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "backup",
		Usage:     "Back up the library into a directory, while the server runs",
		ArgsUsage: "DIR",
		Description: `Copies a consistent snapshot of the database (SQLite's online backup) and
every original, version, sidecar and variant it points at into DIR, with
manifest.json listing each file's SHA-256. Run it again on the same DIR to
update the backup: files already there with the same checksum are not copied
again, and files the library no longer has are removed. The manifest is
written last, so an interrupted run leaves the previous backup whole.
It takes no lock: run it beside 'photoctl serve'. On a terminal, its progress
(assets and versions gone through) is shown on standard error; -q hides it
and the summary.

Example:
   photoctl admin backup --data-dir /srv/photoctl /mnt/backup/photoctl`,
		Flags:  backupFlags(),
		Action: backupAction(f, "admin backup", runF, runBackup),
	}
}

// NewCmdRestore returns `photoctl admin restore`.
func NewCmdRestore(f *Factory, runF func(*BackupOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "restore",
		Usage:     "Restore a backup onto an empty data directory",
		ArgsUsage: "DIR",
		Description: `Copies the backup in DIR (made by 'photoctl admin backup') into the data
directory, which must be missing or empty, and verifies every file against
the manifest's SHA-256. A failed restore leaves the data directory empty.
Then start 'photoctl serve' on it. On a terminal, its progress is shown on
standard error; -q hides it and the summary.

Example:
   photoctl admin restore --data-dir /srv/photoctl-new /mnt/backup/photoctl`,
		Flags:  backupFlags(),
		Action: backupAction(f, "admin restore", runF, runRestore),
	}
}

// backupFlags are the flags of backup and restore.
func backupFlags() []cli.Flag {
	return append([]cli.Flag{dataDirFlag()}, reportFlags()...)
}

// backupAction is the Action of backup and restore (name is the command's
// for the SQLite check): one DIR argument, the effective config, which
// must keep SQLite in the data directory, then runF or runX.
func backupAction(f *Factory, name string, runF func(*BackupOptions) error,
	runX func(context.Context, *BackupOptions) error) cli.ActionFunc {
	return func(c *cli.Context) error {
		dir, err := oneDirArg(c)
		if err != nil {
			return err
		}
		cfg, err := loadConfig(c)
		if err != nil {
			return err
		}
		if err := app.RequireDataDirSQLite(cfg, name); err != nil {
			return err
		}
		opts := &BackupOptions{Config: cfg, Dir: dir, Report: newReport(f, c)}
		return cmdutil.Run(c.Context, opts, runF, runX)
	}
}

// runBackup backs the data directory up into opts.Dir.
func runBackup(ctx context.Context, opts *BackupOptions) error {
	bar := newBackupBar(opts.IO, "backing up", true)
	st, err := backup.Backup(ctx, opts.Config.DataDir, opts.Dir, time.Now(), backup.WithProgress(bar.set))
	bar.finish()
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	return opts.done(st, "backed up %d files into %s (%d copied, %d bytes; %d unchanged; %d removed)\n",
		st.Files, opts.Dir, st.Copied, st.CopiedBytes, st.Reused, st.Pruned)
}

// runRestore restores the backup in opts.Dir onto the data directory.
func runRestore(ctx context.Context, opts *BackupOptions) error {
	bar := newBackupBar(opts.IO, "restoring", false)
	st, err := backup.Restore(ctx, opts.Dir, opts.Config.DataDir, backup.WithProgress(bar.set))
	bar.finish()
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	return opts.done(st, "restored %d files (%d bytes) into %s\n", st.Files, st.Bytes, opts.Config.DataDir)
}

// backupBar shows a backup's or restore's progress on a terminal's
// standard error (nothing elsewhere), made at the first report, when the
// total is known.
type backupBar struct {
	io          *cmdutil.Streams
	description string
	count       bool // show done/total (a backup's rows; a restore's bytes of manifest are a percentage only)
	bar         *progressbar.ProgressBar
}

func newBackupBar(io *cmdutil.Streams, description string, count bool) *backupBar {
	return &backupBar{io: io, description: description, count: count}
}

func (b *backupBar) set(done, total int64) {
	if !b.io.Progress {
		return
	}
	if b.bar == nil {
		opts := []progressbar.Option{progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(100 * time.Millisecond)}
		if b.count {
			opts = append(opts, progressbar.OptionShowCount())
		}
		b.bar = cmdutil.NewBar(b.io.Err, total, b.description, opts...)
	}
	_ = b.bar.Set64(done)
}

func (b *backupBar) finish() {
	if b.bar != nil {
		_ = b.bar.Finish()
	}
}

// oneDirArg returns the single DIR argument.
func oneDirArg(c *cli.Context) (string, error) {
	args := c.Args().Slice()
	if len(args) != 1 || args[0] == "" {
		return "", cmdutil.UsageErrorf(c, "expected one argument, DIR")
	}
	return args[0], nil
}
