//go:build !client

package servercmd

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/store/migrate"
)

// MigrateOptions is what `photoctl admin migrate` needs once its flags are
// parsed: From and To to copy the library, else Config to bring the
// schema of its database up to date.
type MigrateOptions struct {
	// Config is unset (not even loaded) when From and To are.
	Config   app.Config
	From, To string
	// VerifyOnly compares the two databases without copying.
	VerifyOnly bool
	JSON       bool
	Out        io.Writer
}

// migrateTableJSON is one table of the --json output, a contract separate
// from migrate.Table.
type migrateTableJSON struct {
	Table      string `json:"table"`
	Action     string `json:"action"`
	Note       string `json:"note,omitempty"`
	SourceRows int64  `json:"source_rows"`
	TargetRows int64  `json:"target_rows"`
	SourceSum  string `json:"source_sha256,omitempty"`
	TargetSum  string `json:"target_sha256,omitempty"`
	// Verified is absent for a table not compared (skipped, rebuilt).
	Verified *bool `json:"verified,omitempty"`
}

// NewCmdMigrate returns `photoctl admin migrate`.
func NewCmdMigrate(f *Factory, runF func(*MigrateOptions) error) *cli.Command {
	return &cli.Command{
		Name:  "migrate",
		Usage: "Bring the database schema up to date, or move the library from SQLite to PostgreSQL",
		Description: `Without --from/--to: applies the migrations the database has not had yet,
as 'photoctl serve' does when it starts, and exits. Run it after an upgrade
to pay for a long migration (a new index over a large library) before the
server starts, or in a deployment step. Safe to run again and beside a
running server (each migration is applied once, in its own transaction).

With --from sqlite://PATH --to postgres://URL: copies every table of the
SQLite database (PATH: the photoctl.db file or the data directory holding
it) into the PostgreSQL database, which must be empty, column by column name
in one transaction with triggers off (the role must be a superuser or be
granted SET on session_replication_role), then moves identity sequences past
the copied rows. It then counts and checksums every table on both sides
(sha256 over the rows in primary-key order) and prints them; it exits 1 when
any table differs (--verify compares again later, copying nothing). Stop
the server first; originals and variants stay in the data directory: point
database.url (PHOTOCTL_DATABASE_URL) at the new database and keep data_dir.

Example:
   photoctl admin migrate --data-dir /srv/photoctl
   photoctl admin migrate --from sqlite:///srv/photoctl --to postgres://photoctl@db/photoctl`,
		Flags: []cli.Flag{
			dataDirFlag(),
			&cli.StringFlag{Name: "from", Usage: "copy from the SQLite database `sqlite://PATH`"},
			&cli.StringFlag{Name: "to", Usage: "copy into the empty PostgreSQL database `postgres://URL`"},
			&cli.BoolFlag{Name: "verify", Usage: "with --from/--to: only compare the two databases, copy nothing"},
			&cli.BoolFlag{Name: "json", Usage: "with --from/--to: print the tables as JSON"},
		},
		Action: func(c *cli.Context) error {
			if err := cmdutil.NoArgs(c); err != nil {
				return err
			}
			opts := &MigrateOptions{Out: f.Streams(c).Out}
			if c.IsSet("from") || c.IsSet("to") {
				if c.String("from") == "" || c.String("to") == "" {
					return cmdutil.UsageErrorf(c, "--from and --to go together")
				}
				opts.From, opts.To, opts.VerifyOnly, opts.JSON = c.String("from"), c.String("to"), c.Bool("verify"), c.Bool("json")
			} else {
				cfg, err := loadConfig(c)
				if err != nil {
					return err
				}
				opts.Config = cfg
			}
			return cmdutil.Run(c.Context, opts, runF, runMigrate)
		},
	}
}

// runMigrate copies the library when From is set, else applies the
// migrations the database has not had yet.
func runMigrate(ctx context.Context, opts *MigrateOptions) error {
	if opts.From != "" {
		return runMigrateCopy(ctx, opts)
	}
	st, err := app.OpenStore(ctx, opts.Config)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	if err := st.Close(); err != nil {
		return err
	}
	_, err = fmt.Fprintln(opts.Out, "the database schema is up to date")
	return err
}

// runMigrateCopy copies the library and prints each table's counts and
// checksums (also when they differ, before the error).
func runMigrateCopy(ctx context.Context, opts *MigrateOptions) error {
	run := migrate.Copy
	if opts.VerifyOnly {
		run = migrate.Verify
	}
	rep, err := run(ctx, opts.From, opts.To)
	if rep != nil {
		if perr := printMigrateReport(opts, rep); perr != nil && err == nil {
			err = perr
		}
	}
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return nil
}

func printMigrateReport(opts *MigrateOptions, rep *migrate.Report) error {
	if opts.JSON {
		out := make([]migrateTableJSON, 0, len(rep.Tables))
		for _, t := range rep.Tables {
			row := migrateTableJSON{Table: t.Name, Action: t.Action, Note: t.Note, SourceRows: t.SourceRows,
				TargetRows: t.TargetRows, SourceSum: t.SourceSum, TargetSum: t.TargetSum}
			if t.SourceSum != "" {
				ok := t.Verified()
				row.Verified = &ok
			}
			out = append(out, row)
		}
		enc := json.NewEncoder(opts.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	w := tabwriter.NewWriter(opts.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "TABLE\tACTION\tSQLITE ROWS\tPOSTGRES ROWS\tSHA256 (SQLITE)\tCHECK")
	for _, t := range rep.Tables {
		switch t.Action {
		case "skipped":
			fmt.Fprintf(w, "%s\tskipped\t\t\t\t%s\n", t.Name, t.Note)
			continue
		case "rebuilt":
			fmt.Fprintf(w, "%s\trebuilt\t\t%d\t\t%s\n", t.Name, t.TargetRows, t.Note)
			continue
		}
		check := "ok"
		if !t.Verified() {
			check = "DIFFERS (postgres sha256 " + t.TargetSum + ")"
		}
		fmt.Fprintf(w, "%s\t%s\t%d\t%d\t%s\t%s\n", t.Name, t.Action, t.SourceRows, t.TargetRows, t.SourceSum, check)
	}
	return w.Flush()
}
