package cmdutil_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdtest"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
)

type tagOptions struct {
	cmdutil.ClientOptions

	Name, Tag string
}

var errRan = errors.New("ran")

// tagCmd is a command as the client packages declare them: one argument,
// a flag, a check of its own, and a run that needs the connection.
var tagCmd = cmdutil.Command[tagOptions]{
	Name:      "tag",
	Usage:     "Tag a thing",
	ArgsUsage: "NAME",
	Flags:     []cli.Flag{&cli.StringFlag{Name: "tag"}},
	JSON:      true,
	Args:      cmdutil.ExactlyOne("want exactly one argument, the name"),
	Parse: func(c *cli.Context, args []string, opts *tagOptions) error {
		opts.Name, opts.Tag = args[0], c.String("tag")
		if opts.Tag == "" {
			return cmdutil.UsageErrorf(c, "give --tag")
		}
		return nil
	},
	Run: func(context.Context, *cmdutil.APIConn, *tagOptions) error { return errRan },
}

func TestNewBuildsTheDeclaredCommand(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	cmd := cmdutil.New(f, tagCmd, nil)
	require.Equal(t, "tag", cmd.Name)
	require.Equal(t, "Tag a thing", cmd.Usage)
	require.Equal(t, "NAME", cmd.ArgsUsage)
	names := []string{}
	for _, fl := range cmd.Flags {
		names = append(names, fl.Names()[0])
	}
	client := []string{}
	for _, fl := range cmdutil.ClientFlags() {
		client = append(client, fl.Names()[0])
	}
	require.Equal(t, append(client, "tag", "json"), names, "the client flags, the command's own, then --json")
}

func TestNewHandsTheParsedOptionsToRunF(t *testing.T) {
	got := cmdtest.Parse(t, func(f *cmdutil.Factory, runF func(*tagOptions) error) *cli.Command {
		return cmdutil.New(f, tagCmd, runF)
	}, "", "--tag", "blue", "--json", "sky")
	require.Equal(t, "sky", got.Name)
	require.Equal(t, "blue", got.Tag)
	require.True(t, got.JSON)
	require.NotNil(t, got.IO)
	require.NotNil(t, got.Conn)
}

// The argument count and Parse's own checks are usage errors met before
// any connection: the test Factory fails the test if one is made.
func TestNewRefusesBadCommandLinesBeforeConnecting(t *testing.T) {
	cmdtest.RequireUsageErrors(t, func(f *cmdutil.Factory) *cli.Command { return cmdutil.New(f, tagCmd, nil) },
		map[string][]string{
			"no argument":   {"--tag", "blue"},
			"two arguments": {"--tag", "blue", "a", "b"},
			"Parse refuses": {"sky"},
		})
}

func TestNewConnectsThenRuns(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	var needAuth []bool
	f.Connect = func(_ *cli.Context, auth bool) (*cmdutil.APIConn, error) {
		needAuth = append(needAuth, auth)
		return &cmdutil.APIConn{}, nil
	}
	require.ErrorIs(t, cmdtest.Run(t, cmdutil.New(f, tagCmd, nil), "--tag", "blue", "sky"), errRan)
	require.Equal(t, []bool{true}, needAuth, "connected once, with a credential")

	noAuth := tagCmd
	noAuth.NoAuth = true
	require.ErrorIs(t, cmdtest.Run(t, cmdutil.New(f, noAuth, nil), "--tag", "blue", "sky"), errRan)
	require.Equal(t, []bool{true, false}, needAuth, "NoAuth connects without one")

	failing := errors.New("no server")
	f.Connect = func(*cli.Context, bool) (*cmdutil.APIConn, error) { return nil, failing }
	require.ErrorIs(t, cmdtest.Run(t, cmdutil.New(f, tagCmd, nil), "--tag", "blue", "sky"), failing,
		"a failed connection ends the command before its run")
}

func TestNewRunsOfflineCommandsWithoutConnecting(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "") // connecting fails the test
	offline := tagCmd
	offline.Run = nil
	offline.Offline = func(_ context.Context, opts *tagOptions) error {
		require.Equal(t, "sky", opts.Name)
		return errRan
	}
	require.ErrorIs(t, cmdtest.Run(t, cmdutil.New(f, offline, nil), "--tag", "blue", "sky"), errRan)
}

type dropOptions struct{ cmdutil.EachOptions }

func TestNewGivesEachOptionsTheArguments(t *testing.T) {
	drop := cmdutil.Command[dropOptions]{Name: "drop", Args: cmdutil.AtLeastOne("give at least one id")}
	got := cmdtest.Parse(t, func(f *cmdutil.Factory, runF func(*dropOptions) error) *cli.Command {
		return cmdutil.New(f, drop, runF)
	}, "", "a_1", "a_2")
	require.Equal(t, []string{"a_1", "a_2"}, got.IDs)
	require.False(t, got.JSON, "no --json flag: false")
	cmdtest.RequireUsageErrors(t, func(f *cmdutil.Factory) *cli.Command { return cmdutil.New(f, drop, nil) },
		map[string][]string{"no id": {}})
}

type shelfOptions struct {
	cmdutil.ClientOptions
	cmdutil.InLibrary
}

// Options that embed InLibrary get --library as given, and its id once
// connected: the run starts from the id.
func TestNewResolvesTheLibraryOfInLibraryOptions(t *testing.T) {
	var got *shelfOptions
	shelf := cmdutil.Command[shelfOptions]{Name: "shelf", Flags: []cli.Flag{cmdutil.LibraryFlag()},
		Run: func(_ context.Context, _ *cmdutil.APIConn, opts *shelfOptions) error { got = opts; return nil }}
	parsed := cmdtest.Parse(t, func(f *cmdutil.Factory, runF func(*shelfOptions) error) *cli.Command {
		return cmdutil.New(f, shelf, runF)
	}, "", "--library", "lib_1")
	require.Equal(t, "lib_1", parsed.Library)
	require.Empty(t, parsed.LibraryID, "resolved only once connected")

	f, _ := cmdtest.NewFactory(t, "")
	f.Connect = func(*cli.Context, bool) (*cmdutil.APIConn, error) { return &cmdutil.APIConn{}, nil }
	require.NoError(t, cmdtest.Run(t, cmdutil.New(f, shelf, nil), "--library", "lib_1"))
	require.Equal(t, "lib_1", got.LibraryID, "an id is used as given")
}
