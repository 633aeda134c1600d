//go:build !client

package main

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/backup"
)

// newBackupCommand returns `photoctl admin backup`.
func newBackupCommand() *cli.Command {
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
		Flags: []cli.Flag{dataDirFlag(), &cli.BoolFlag{Name: "json", Usage: "print what was done as JSON"}, cmdutil.QuietFlag()},
		Action: func(c *cli.Context) error {
			dir, err := oneDirArg(c)
			if err != nil {
				return err
			}
			cfg, err := loadConfig(c)
			if err != nil {
				return err
			}
			if err := app.RequireDataDirSQLite(cfg, "admin backup"); err != nil {
				return err
			}
			bar := newBackupBar(cmdutil.NewStreams(c), "backing up", true)
			st, err := backup.Backup(c.Context, cfg.DataDir, dir, time.Now(), backup.WithProgress(bar.set))
			bar.finish()
			if err != nil {
				return fmt.Errorf("backup: %w", err)
			}
			if c.Bool("json") {
				return json.NewEncoder(c.App.Writer).Encode(st)
			}
			if c.Bool("quiet") {
				return nil
			}
			_, err = fmt.Fprintf(c.App.Writer, "backed up %d files into %s (%d copied, %d bytes; %d unchanged; %d removed)\n",
				st.Files, dir, st.Copied, st.CopiedBytes, st.Reused, st.Pruned)
			return err
		},
	}
}

// newAdminRestoreCommand returns `photoctl admin restore`.
func newAdminRestoreCommand() *cli.Command {
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
		Flags: []cli.Flag{dataDirFlag(), &cli.BoolFlag{Name: "json", Usage: "print what was done as JSON"}, cmdutil.QuietFlag()},
		Action: func(c *cli.Context) error {
			dir, err := oneDirArg(c)
			if err != nil {
				return err
			}
			cfg, err := loadConfig(c)
			if err != nil {
				return err
			}
			if err := app.RequireDataDirSQLite(cfg, "admin restore"); err != nil {
				return err
			}
			bar := newBackupBar(cmdutil.NewStreams(c), "restoring", false)
			st, err := backup.Restore(c.Context, dir, cfg.DataDir, backup.WithProgress(bar.set))
			bar.finish()
			if err != nil {
				return fmt.Errorf("restore: %w", err)
			}
			if c.Bool("json") {
				return json.NewEncoder(c.App.Writer).Encode(st)
			}
			if c.Bool("quiet") {
				return nil
			}
			_, err = fmt.Fprintf(c.App.Writer, "restored %d files (%d bytes) into %s\n", st.Files, st.Bytes, cfg.DataDir)
			return err
		},
	}
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
