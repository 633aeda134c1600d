package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
)

// The reordering is checked on the real command tree, whose flags are the
// ones users write.
func TestReorderFlags(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"a boolean flag after the argument moves in front", "get asset_1 --json", "get --json asset_1"},
		{"a flag with a value moves with its value", "edit asset_1 --rating 5", "edit --rating 5 asset_1"},
		{"several flags keep their order", "edit asset_1 --rating 5 --description hi", "edit --rating 5 --description hi asset_1"},
		{"the = form is one token", "upload DIR --jobs=8", "upload --jobs=8 DIR"},
		{"a boolean flag's = form is one token", "upload DIR -r=false", "upload -r=false DIR"},
		{"a boolean alias takes no value", "upload DIR -r --json", "upload -r --json DIR"},
		{"an alias with a value takes its value", "upload DIR -j 8 other", "upload -j 8 DIR other"},
		{"a single-dash long name works as Go's flag package reads it", "upload DIR -jobs 8", "upload -jobs 8 DIR"},
		{"a value that starts with a dash stays the flag's value", "edit asset_1 --description -x-", "edit --description -x- asset_1"},
		{"flags before the arguments stay first, later ones follow", "upload -r DIR --json", "upload -r --json DIR"},
		{"a repeated flag keeps its order", "keys create --action asset.read ci --action library.read",
			"keys create --action asset.read --action library.read ci"},
		{"a subcommand's flag moves behind its name", `albums create X --description d`, "albums create --description d X"},
		{"a bare dash is an argument", "albums add X - --json", "albums add --json X -"},
		{"-- ends the flags: what follows stays an argument", "upload --json -- -odd.jpg --json", "upload --json -- -odd.jpg --json"},
		{"-- after moved flags keeps the arguments behind it", "upload DIR --json -- -odd.jpg", "upload --json -- DIR -odd.jpg"},
		{"a global flag the command repeats stays with the command", "get asset_1 --server http://x", "get --server http://x asset_1"},
		{"a global flag only the root has moves before the command", "get asset_1 --config c.toml", "--config c.toml get asset_1"},
		{"a global flag before the command stays there", "--server http://x get asset_1 --json", "--server http://x get --json asset_1"},
		{"a root flag moves before the group's name", "albums create X --config c.toml", "--config c.toml albums create X"},
		{"an unknown flag moves in front so that urfave names it", "get asset_1 --bogus", "get --bogus asset_1"},
		{"an unknown flag takes no value", "get asset_1 --bogus v", "get --bogus asset_1 v"},
		{"--help after arguments drops them so that the command's help shows", "get asset_1 --help", "get --help"},
		{"a group's argument is an unknown command: nothing moves", "albums bogus --json", "albums bogus --json"},
		{"help with a command after it: nothing moves", "help albums --json", "help albums --json"},
		{"--help after -- is an argument", "get -- --help", "get -- --help"},
		{"a shell completion request is left as typed", "get asset_1 --json --generate-bash-completion",
			"get asset_1 --json --generate-bash-completion"},
		{"no flags: nothing moves", "albums add X asset_1 asset_2", "albums add X asset_1 asset_2"},
		{"no arguments", "", ""},
		{"a value flag last without arguments is left for urfave to report", "ls --limit", "ls --limit"},
	}
	a := newApp(stubFactory(t))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := reorderFlags(a, append([]string{"photoctl"}, strings.Fields(tt.in)...))
			require.NoError(t, err)
			require.Equal(t, append([]string{"photoctl"}, strings.Fields(tt.want)...), got)
		})
	}
}

func TestReorderFlagsMissingValue(t *testing.T) {
	tests := []struct {
		name, in, help string
	}{
		{"a value flag last after an argument", "get asset_1 --server", "photoctl get"},
		{"a subcommand's value flag last", "albums create X --description", "photoctl albums create"},
		{"a root flag last after the command", "get asset_1 --config", "photoctl get"},
	}
	a := newApp(stubFactory(t))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := reorderFlags(a, append([]string{"photoctl"}, strings.Fields(tt.in)...))
			var usage *cmdutil.UsageError
			require.ErrorAs(t, err, &usage)
			require.Equal(t, tt.help, usage.Help)
			require.Contains(t, err.Error(), "flag needs an argument: --")
		})
	}
}

// What urfave hands the action after the reordering: flag values and
// arguments, on a small tree of its own.
func TestFlagsAfterArgumentsReachTheAction(t *testing.T) {
	var got struct {
		args        []string
		json        bool
		limit       int
		description string
		config      string
	}
	action := func(c *cli.Context) error {
		got.args, got.json, got.limit = c.Args().Slice(), c.Bool("json"), c.Int("limit")
		got.description, got.config = c.String("description"), c.String("config")
		return nil
	}
	leafFlags := func() []cli.Flag {
		return []cli.Flag{
			&cli.BoolFlag{Name: "json"},
			&cli.IntFlag{Name: "limit", Aliases: []string{"n"}},
			&cli.StringFlag{Name: "description"},
		}
	}
	newTestApp := func() *cli.App {
		a := &cli.App{
			Name:  "photoctl",
			Flags: []cli.Flag{&cli.StringFlag{Name: "config"}},
			Commands: []*cli.Command{
				{Name: "get", Flags: leafFlags(), Action: action},
				{Name: "albums", Subcommands: []*cli.Command{{Name: "create", Flags: leafFlags(), Action: action}}},
			},
			OnUsageError:   onUsageError,
			ExitErrHandler: func(*cli.Context, error) {},
			Writer:         &strings.Builder{},
			ErrWriter:      &strings.Builder{},
		}
		setUsageErrorHandler(a.Commands)
		return a
	}
	tests := []struct {
		name        string
		in          string
		args        []string
		json        bool
		limit       int
		description string
		config      string
	}{
		{name: "flags after the argument are read", in: "get a1 --json -n 5", args: []string{"a1"}, json: true, limit: 5},
		{name: "the = form", in: "get a1 --limit=7", args: []string{"a1"}, limit: 7},
		{name: "a subcommand's flags", in: "albums create X --description d", args: []string{"X"}, description: "d"},
		{name: "a root flag after the command", in: "albums create X --config c.toml --json", args: []string{"X"}, json: true, config: "c.toml"},
		{name: "arguments after -- that look like flags", in: "get a1 --json -- -b --limit", args: []string{"a1", "-b", "--limit"}, json: true},
		{name: "a bare dash", in: "get - --json", args: []string{"-"}, json: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got = struct {
				args        []string
				json        bool
				limit       int
				description string
				config      string
			}{}
			a := newTestApp()
			code := execute(t.Context(), a, append([]string{"photoctl"}, strings.Fields(tt.in)...))
			require.Equal(t, exitOK, code, "stderr: %s", a.ErrWriter)
			require.Equal(t, tt.args, got.args)
			require.Equal(t, tt.json, got.json)
			require.Equal(t, tt.limit, got.limit)
			require.Equal(t, tt.description, got.description)
			require.Equal(t, tt.config, got.config)
		})
	}
}

// The real tree: a flag after the arguments is read, an unknown one is a
// usage error that names it, and --help after arguments is the command's.
func TestFlagsAfterArgumentsOnTheRealTree(t *testing.T) {
	r := runCLI(t, nil, "", "get", "asset_1", "--bogus")
	require.Equal(t, exitUsage, r.code)
	require.Contains(t, r.stderr, "flag provided but not defined: -bogus")
	require.Contains(t, r.stderr, "Run 'photoctl get --help'")

	r = runCLI(t, nil, "", "albums", "create", "X", "--description")
	require.Equal(t, exitUsage, r.code)
	require.Contains(t, r.stderr, "flag needs an argument: --description")

	r = runCLI(t, nil, "", "albums", "bogus", "--json")
	require.Equal(t, exitUsage, r.code)
	require.Contains(t, r.stderr, `unknown command "bogus"`)

	r = runCLI(t, nil, "", "albums", "create", "X", "--help")
	require.Equal(t, exitOK, r.code, r.stderr)
	require.Contains(t, r.stdout, "photoctl albums create")

	// Parsed, then refused for want of a server.
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	r = runCLI(t, nil, "", "get", "asset_1", "--json", "--server", "")
	require.Contains(t, r.stderr, "no server", r.stderr)
}
