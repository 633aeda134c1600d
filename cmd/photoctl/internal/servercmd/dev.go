//go:build !client

package servercmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/devseed"
	"github.com/photoctl/photoctl/server/store"
)

// Defaults of `photoctl dev seed` for the account it seeds into.
const (
	devEmail    = "dev@example.com"
	devPassword = "photoctl-dev"
)

// DevSeedOptions is what `photoctl dev seed` needs once its flags are
// parsed.
type DevSeedOptions struct {
	Config app.Config
	// Email names the account to seed into; it is created with Password
	// when it does not exist.
	Email    string
	Password string
	Assets   int
	Batch    int
	Seed     uint64
	Out      io.Writer // the summary
	ErrOut   io.Writer // progress
	// CreateUser is app.CreateUser in production.
	CreateUser func(ctx context.Context, cfg app.Config, u app.NewUser) (*catalog.User, error)
	// OpenStore opens the data directory's store; OpenDataDirStore in
	// production.
	OpenStore func(ctx context.Context, cfg app.Config) (store.Store, error)
}

// NewCmdDev returns `photoctl dev`, tools for developing photoctl. It
// is hidden from the help and the generated docs: nothing in it is meant
// for a real library.
func NewCmdDev(f *Factory) *cli.Command {
	return &cli.Command{
		Name:   "dev",
		Usage:  "Tools for developing photoctl (not for real libraries)",
		Hidden: true,
		Description: `Commands that help develop and benchmark photoctl. They write made-up
data; do not point them at a library you care about.

Example:
   photoctl dev seed --data-dir /tmp/photoctl-dev --assets 100000`,
		Subcommands: []*cli.Command{NewCmdDevSeed(f, nil)},
		Action:      cmdutil.GroupAction(cli.ShowSubcommandHelp),
	}
}

// NewCmdDevSeed returns `photoctl dev seed`.
func NewCmdDevSeed(f *Factory, runF func(*DevSeedOptions) error) *cli.Command {
	return &cli.Command{
		Name:  "seed",
		Usage: "Fill a library with generated assets",
		Description: `Adds --assets generated asset rows (no files) to the first library of the
account --library-email, creating the account with --password when it does
not exist. Capture times span ten years, clustered by day, season and
session; about 70% carry coordinates around some fifty cities; 5% are
videos, 10% rated, 2% trashed. Progress goes to stderr; the summary, with
the rate in assets per second, to stdout. The server may be running.

Example:
   photoctl dev seed --data-dir /tmp/photoctl-dev --assets 1000000 --library-email dev@example.com`,
		Flags: []cli.Flag{
			dataDirFlag(),
			&cli.IntFlag{Name: "assets", Usage: "add `N` assets (required)"},
			&cli.StringFlag{Name: "library-email", Value: devEmail, Usage: "seed the first library of the account with this `EMAIL`"},
			&cli.StringFlag{Name: "password", Value: devPassword, Usage: "`PASSWORD` of the account if it has to be created"},
			&cli.IntFlag{Name: "batch", Value: devseed.DefaultBatch, Usage: "write `N` assets per transaction"},
			&cli.Uint64Flag{Name: "seed", Usage: "generate reproducible data from `SEED` (default: random)"},
		},
		Action: func(c *cli.Context) error {
			if err := cmdutil.NoArgs(c); err != nil {
				return err
			}
			if c.Int("assets") <= 0 {
				return cmdutil.UsageErrorf(c, "--assets must be a positive number")
			}
			if c.Int("batch") <= 0 {
				return cmdutil.UsageErrorf(c, "--batch must be a positive number")
			}
			cfg, err := loadConfig(c)
			if err != nil {
				return err
			}
			streams := f.Streams(c)
			opts := &DevSeedOptions{
				Config: cfg, Email: strings.TrimSpace(c.String("library-email")), Password: c.String("password"),
				Assets: c.Int("assets"), Batch: c.Int("batch"), Seed: c.Uint64("seed"),
				Out: streams.Out, ErrOut: streams.Err,
				CreateUser: f.CreateUser, OpenStore: OpenDataDirStore,
			}
			return cmdutil.Run(c.Context, opts, runF, runDevSeed)
		},
	}
}

// runDevSeed finds or creates the account, then seeds its first library.
func runDevSeed(ctx context.Context, opts *DevSeedOptions) error {
	st, err := opts.OpenStore(ctx, opts.Config)
	if err != nil {
		return err
	}
	defer st.Close()
	u, err := st.Read().Users().GetByEmail(ctx, opts.Email)
	if errors.Is(err, catalog.ErrNotFound) {
		u, err = opts.CreateUser(ctx, opts.Config, app.NewUser{Email: opts.Email, Password: opts.Password, FirstName: "Dev"})
		if err == nil {
			fmt.Fprintf(opts.ErrOut, "created user %s (%s)\n", u.ID, u.Email)
		}
	}
	if err != nil {
		return fmt.Errorf("find or create user %s: %w", opts.Email, err)
	}
	lib, err := devseed.FirstOwnedLibrary(ctx, st, u.ID)
	if err != nil {
		return err
	}
	step := max(opts.Batch, opts.Assets/10)
	next := step
	res, err := devseed.Seed(ctx, st, devseed.Options{LibraryID: lib.ID, Assets: opts.Assets, Batch: opts.Batch,
		Seed: opts.Seed, Progress: func(done int) {
			if done >= next && done < opts.Assets {
				fmt.Fprintf(opts.ErrOut, "seeded %d of %d assets\n", done, opts.Assets)
				next = done + step
			}
		}})
	if err != nil {
		return fmt.Errorf("seed library %s (%d assets written): %w", lib.ID, res.Assets, err)
	}
	// The seeded places are synthetic: a server's start must not queue
	// their re-geocoding (a million assets' worth in the benchmarks).
	if err := app.MarkPlacesCurrent(ctx, st); err != nil {
		return err
	}
	_, err = fmt.Fprintf(opts.Out, "seeded %d assets into library %s of %s in %.1fs: %.0f assets/s\n",
		res.Assets, lib.ID, u.Email, res.Elapsed.Seconds(), res.PerSecond())
	return err
}

// OpenDataDirStore opens the SQLite database of cfg's data directory
// through server/app, which owns where it lives.
func OpenDataDirStore(ctx context.Context, cfg app.Config) (store.Store, error) {
	if cfg.Database.URL != "" {
		return nil, errors.New("dev seed supports the default SQLite store in the data directory only")
	}
	return app.OpenStore(ctx, cfg)
}
