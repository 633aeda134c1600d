//go:build !client

package servercmd

import (
	"fmt"

	"github.com/knadh/koanf/providers/confmap"
	"github.com/knadh/koanf/providers/env/v2"
	"github.com/knadh/koanf/providers/structs"
	"github.com/knadh/koanf/v2"
	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/app"
)

// flagKeys maps each command-line flag that overrides a config key to that
// key. A command offers whichever of these flags make sense for it;
// loadConfig applies those the user actually set.
var flagKeys = map[string]string{
	"listen":           "listen",
	"data-dir":         "data_dir",
	"database-url":     "database.url",
	"log-level":        "log.level",
	"log-format":       "log.format",
	"max-upload-bytes": "upload.max_bytes",
	"concurrency":      "workers.concurrency",
	"immich-listen":    "immich.listen",
}

// loadConfig builds the effective configuration, each layer overriding the
// one before: built-in defaults, the TOML config file, PHOTOCTL_*
// environment variables, and the flags set on the command line. Problems the
// user has to fix (bad file, unknown key, bad value) are usage errors.
func loadConfig(c *cli.Context) (app.Config, error) {
	k := koanf.New(".")
	if err := k.Load(structs.Provider(app.Defaults(cmdutil.DefaultDataDir()), "koanf"), nil); err != nil {
		return app.Config{}, fmt.Errorf("load defaults: %w", err)
	}
	known := make(map[string]bool)
	for _, key := range k.Keys() {
		known[key] = true
	}
	for _, key := range cmdutil.ClientConfigKeys { // the CLI's keys may share the file
		known[key] = true
	}

	path, explicit := cmdutil.ConfigPath(c)
	if err := cmdutil.LoadConfigFile(k, path, explicit, known); err != nil {
		return app.Config{}, err
	}
	envOpt := env.Opt{Prefix: cmdutil.EnvPrefix, TransformFunc: cmdutil.EnvTransform(cmdutil.EnvKeys(known))}
	if err := k.Load(env.Provider(".", envOpt), nil); err != nil {
		return app.Config{}, fmt.Errorf("load environment: %w", err)
	}
	if err := k.Load(confmap.Provider(setFlagValues(c), "."), nil); err != nil {
		return app.Config{}, fmt.Errorf("load flags: %w", err)
	}

	// koanf's default decoder turns "720h" into a time.Duration
	// (StringToTimeDurationHookFunc) and "true"/"42" into bool/int
	// (WeaklyTypedInput), which is what environment variables need.
	var cfg app.Config
	if err := k.UnmarshalWithConf("", &cfg, koanf.UnmarshalConf{Tag: "koanf"}); err != nil {
		return app.Config{}, cmdutil.InvalidConfig(err)
	}
	if err := cfg.Validate(); err != nil {
		return app.Config{}, cmdutil.InvalidConfig(err)
	}
	return cfg, nil
}

// noArgsConfig refuses arguments, then returns the effective
// configuration: the start of every Action that takes flags only.
func noArgsConfig(c *cli.Context) (app.Config, error) {
	if err := cmdutil.NoArgs(c); err != nil {
		return app.Config{}, err
	}
	return loadConfig(c)
}

// setFlagValues returns the config keys of the flags set on the command
// line, with their values, so that defaults of unset flags override nothing.
func setFlagValues(c *cli.Context) map[string]any {
	out := make(map[string]any)
	for name, key := range flagKeys {
		if c.IsSet(name) {
			out[key] = c.Value(name)
		}
	}
	return out
}

// dataDirFlag is --data-dir, shared by every command that opens the library.
func dataDirFlag() cli.Flag {
	return &cli.StringFlag{
		Name:        "data-dir",
		Usage:       "keep the database and originals in `DIR` (config: data_dir)",
		DefaultText: "$XDG_DATA_HOME/photoctl",
	}
}

// databaseURLFlag selects the database: SQLite in the data directory, or
// PostgreSQL, which every serve and worker process then shares.
func databaseURLFlag() cli.Flag {
	return &cli.StringFlag{
		Name:        "database-url",
		Usage:       "use the database at `URL`: sqlite://PATH or postgres://USER@HOST/DB (config: database.url)",
		DefaultText: "SQLite photoctl.db in the data directory",
	}
}

// logFlags are --log-level and --log-format, of the commands that log.
func logFlags() []cli.Flag {
	d := app.Defaults("")
	return []cli.Flag{
		&cli.StringFlag{
			Name:        "log-level",
			Usage:       "log `LEVEL`: debug, info, warn or error (config: log.level)",
			DefaultText: d.Log.Level,
		},
		&cli.StringFlag{
			Name:        "log-format",
			Usage:       "log `FORMAT`: text or json (config: log.format)",
			DefaultText: d.Log.Format,
		},
	}
}
