package cmdutil

import (
	"fmt"

	"github.com/knadh/koanf/providers/confmap"
	"github.com/knadh/koanf/providers/env/v2"
	"github.com/knadh/koanf/providers/structs"
	"github.com/knadh/koanf/v2"
	"github.com/urfave/cli/v2"
)

// ClientConfig is what the commands that talk to a server take from the
// configuration layers (defaults < config file < PHOTOCTL_* < flags):
// server and api_key are enough on their own, for scripts and CI; profile
// picks a signed-in profile of the credentials file otherwise. library is
// the library (id or name) of commands that work in one when --library is
// left out.
type ClientConfig struct {
	Server  string `koanf:"server"`
	APIKey  secret `koanf:"api_key"`
	Profile string `koanf:"profile"`
	Library string `koanf:"library"`
	// LibraryFromEnv says that Library came from $PHOTOCTL_LIBRARY, which
	// outranks the profile's default (photoctl libraries switch); the
	// config file's library key does not.
	LibraryFromEnv bool `koanf:"-"`
}

// secret is a string that never prints itself (the API key).
type secret string

// String masks the secret.
func (s secret) String() string {
	if s == "" {
		return ""
	}
	return "********"
}

// clientFlagKeys maps the global client flags to their config keys.
// --library is not among them: each command that works in a library
// offers it and reads it itself (ResolveLibrary).
var clientFlagKeys = map[string]string{"server": "server", "api-key": "api_key", "profile": "profile"}

// ClientConfigKeys are the config keys of ClientConfig; the server's
// loader accepts them in the shared config file too.
var ClientConfigKeys = []string{"server", "api_key", "profile", "library"}

// ClientFlags are --server, --api-key and --profile. They are offered on
// the root and again on every command that talks to a server, so they work
// before or after the command name. Their environment variables are read
// by LoadClientConfig (a koanf layer), not by urfave.
func ClientFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "server", Usage: "server `URL`, such as http://127.0.0.1:2283 (or $PHOTOCTL_SERVER; default: the profile's)"},
		&cli.StringFlag{Name: "api-key", Usage: "authenticate with this API `KEY` instead of a profile (or $PHOTOCTL_API_KEY)"},
		&cli.StringFlag{Name: "profile", Usage: "use the signed-in profile `NAME` (or $PHOTOCTL_PROFILE; default: the current one)"},
	}
}

// LoadClientConfig applies the layers to ClientConfig. The config file may
// hold server keys as well; they are not this loader's business.
func LoadClientConfig(c *cli.Context) (ClientConfig, error) {
	k := koanf.New(".")
	if err := k.Load(structs.Provider(ClientConfig{}, "koanf"), nil); err != nil {
		return ClientConfig{}, fmt.Errorf("load defaults: %w", err)
	}
	own := make(map[string]bool)
	for _, key := range ClientConfigKeys {
		own[key] = true
	}
	known := make(map[string]bool)
	for key := range own {
		known[key] = true
	}
	for _, key := range ServerConfigKeys {
		known[key] = true
	}

	path, explicit := ConfigPath(c)
	fk := koanf.New(".")
	if err := LoadConfigFile(fk, path, explicit, known); err != nil {
		return ClientConfig{}, err
	}
	for key := range own {
		if fk.Exists(key) {
			_ = k.Set(key, fk.Get(key))
		}
	}
	envOpt := env.Opt{Prefix: EnvPrefix, TransformFunc: EnvTransform(EnvKeys(own))}
	ek := koanf.New(".")
	if err := ek.Load(env.Provider(".", envOpt), nil); err != nil {
		return ClientConfig{}, fmt.Errorf("load environment: %w", err)
	}
	if err := k.Merge(ek); err != nil {
		return ClientConfig{}, fmt.Errorf("load environment: %w", err)
	}
	flags := make(map[string]any)
	for name, key := range clientFlagKeys {
		if v, ok := lineageString(c, name); ok {
			flags[key] = v
		}
	}
	if err := k.Load(confmap.Provider(flags, "."), nil); err != nil {
		return ClientConfig{}, fmt.Errorf("load flags: %w", err)
	}
	var cfg ClientConfig
	if err := k.UnmarshalWithConf("", &cfg, koanf.UnmarshalConf{Tag: "koanf"}); err != nil {
		return ClientConfig{}, InvalidConfig(err)
	}
	cfg.LibraryFromEnv = ek.String("library") != ""
	return cfg, nil
}

// lineageString returns the value of a string flag set on this command or
// any parent, the nearest first: `photoctl --server X ls` and `photoctl ls
// --server X` both work.
func lineageString(c *cli.Context, name string) (string, bool) {
	for _, ctx := range c.Lineage() {
		for _, set := range ctx.LocalFlagNames() {
			if set == name {
				return ctx.String(name), true
			}
		}
	}
	return "", false
}
