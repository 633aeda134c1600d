//go:build !client

package servercmd

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/knadh/koanf/parsers/toml/v2"
	"github.com/knadh/koanf/providers/structs"
	"github.com/knadh/koanf/v2"
	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/app"
)

// ConfigShowOptions is what `photoctl config show` needs once its flags are
// parsed.
type ConfigShowOptions struct {
	Config app.Config
	JSON   bool
	Out    io.Writer
}

// NewCmdConfig returns `photoctl config`.
func NewCmdConfig(f *Factory) *cli.Command {
	return &cli.Command{
		Name:  "config",
		Usage: "Inspect the configuration",
		Description: `Configuration comes from built-in defaults, the TOML file given by
--config (default $XDG_CONFIG_HOME/photoctl/config.toml), PHOTOCTL_*
environment variables (data_dir is PHOTOCTL_DATA_DIR, rate_limit.enabled is
PHOTOCTL_RATE_LIMIT_ENABLED) and flags, each overriding the one before.

Example:
   PHOTOCTL_LOG_LEVEL=debug photoctl --config ./photoctl.toml config show`,
		Subcommands: []*cli.Command{NewCmdConfigShow(f, nil)},
		Action:      cmdutil.GroupAction(cli.ShowSubcommandHelp),
	}
}

// NewCmdConfigShow returns `photoctl config show`. It takes the same
// config flags as serve, so it shows what serve would run with.
func NewCmdConfigShow(f *Factory, runF func(*ConfigShowOptions) error) *cli.Command {
	return &cli.Command{
		Name:  "show",
		Usage: "Print the effective configuration, secrets masked",
		Description: `Prints the configuration after every layer is applied, as TOML that
can serve as a config file, or as JSON with --json. Durations are Go
duration strings ("720h0m0s"); secrets such as database.url are masked.

Example:
   photoctl config show --listen 0.0.0.0:2283 --json`,
		Flags: append(serveFlags(), &cli.BoolFlag{Name: "json", Usage: "print JSON instead of TOML"}),
		Action: func(c *cli.Context) error {
			cfg, err := noArgsConfig(c)
			if err != nil {
				return err
			}
			opts := &ConfigShowOptions{Config: cfg, JSON: c.Bool("json"), Out: f.Streams(c).Out}
			return cmdutil.Run(c.Context, opts, runF, runConfigShow)
		},
	}
}

// runConfigShow prints opts.Config.
func runConfigShow(_ context.Context, opts *ConfigShowOptions) error {
	m, err := configMap(opts.Config)
	if err != nil {
		return err
	}
	var b []byte
	if opts.JSON {
		b, err = json.MarshalIndent(m, "", "  ")
		b = append(b, '\n')
	} else {
		b, err = toml.Parser().Marshal(m)
	}
	if err != nil {
		return fmt.Errorf("encode config: %w", err)
	}
	_, err = opts.Out.Write(b)
	return err
}

// configMap returns cfg as a nested map under its koanf keys, with
// durations as duration strings and secrets masked, ready for any encoder.
func configMap(cfg app.Config) (map[string]any, error) {
	k := koanf.New(".")
	if err := k.Load(structs.Provider(cfg, "koanf"), nil); err != nil {
		return nil, fmt.Errorf("flatten config: %w", err)
	}
	for _, key := range k.Keys() {
		switch v := k.Get(key).(type) {
		case time.Duration:
			_ = k.Set(key, v.String())
		case app.Secret:
			_ = k.Set(key, v.String()) // masked
		}
	}
	return k.Raw(), nil
}
