package libraries

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdtest"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
)

// usage returns the NewCmd of a command for cmdtest.RequireUsageErrors.
func usage[O any](newCmd func(*cmdutil.Factory, func(O) error) *cli.Command) func(*cmdutil.Factory) *cli.Command {
	return func(f *cmdutil.Factory) *cli.Command { return newCmd(f, nil) }
}

func TestLibrariesListParsesItsOptions(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	var got *ListOptions
	require.NoError(t, cmdtest.Run(t, NewCmdList(f, func(o *ListOptions) error { got = o; return nil }), "--state", "trashed", "--json"))
	require.NotNil(t, got)
	require.Equal(t, "trashed", got.State)
	require.True(t, got.JSON)
	require.NotNil(t, got.IO)
	require.NotNil(t, got.Conn)

	cmdtest.RequireUsageErrors(t, usage(NewCmdList), map[string][]string{"an argument": {"extra"}})
}

func TestLibrariesCreateParsesItsOptions(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	var got *CreateOptions
	require.NoError(t, cmdtest.Run(t, NewCmdCreate(f, func(o *CreateOptions) error { got = o; return nil }), "Family archive"))
	require.NotNil(t, got)
	require.Equal(t, "Family archive", got.Name)
	require.False(t, got.JSON)

	cmdtest.RequireUsageErrors(t, usage(NewCmdCreate), map[string][]string{"no name": {}, "two names": {"a", "b"}})
}

func TestLibrariesSwitchTrashRestoreParseTheirOptions(t *testing.T) {
	for _, name := range []string{"switch", "trash", "restore"} {
		t.Run(name, func(t *testing.T) {
			f, _ := cmdtest.NewFactory(t, "")
			var got *ActionOptions
			cmd := NewCmdAction(f, name, func(o *ActionOptions) error { got = o; return nil })
			require.NotEmpty(t, cmd.Usage)
			require.Contains(t, cmd.Description, "Example:")
			require.NoError(t, cmdtest.Run(t, cmd, "--json", "Old imports"))
			require.NotNil(t, got)
			require.Equal(t, name, got.Action)
			require.Equal(t, "Old imports", got.Library)
			require.True(t, got.JSON)

			cmdtest.RequireUsageErrors(t, func(f *cmdutil.Factory) *cli.Command { return NewCmdAction(f, name, nil) },
				map[string][]string{"no library": {}, "two libraries": {"a", "b"}})
		})
	}
}

func TestInviteCreateParsesItsOptions(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	var got *InviteCreateOptions
	cmd := NewCmdInviteCreate(f, func(o *InviteCreateOptions) error { got = o; return nil })
	before := time.Now()
	require.NoError(t, cmdtest.Run(t, cmd, "--library", "Family", "--role", "collaborator", "--expires", "48h",
		"--max", "3", "--json"))
	require.NotNil(t, got)
	require.Equal(t, "Family", got.Library.Value)
	require.Equal(t, "photoctl create", got.Library.Help)
	require.Equal(t, "collaborator", got.Role)
	require.WithinRange(t, got.Expires, before.Add(48*time.Hour), time.Now().Add(48*time.Hour))
	require.Equal(t, 3, got.Max)
	require.True(t, got.JSON)

	require.NoError(t, cmdtest.Run(t, NewCmdInviteCreate(f, func(o *InviteCreateOptions) error { got = o; return nil }),
		"--expires", "2030-01-31T18:00:00+01:00"))
	require.Equal(t, "", got.Library.Value, "the default library")
	require.Equal(t, "viewer", got.Role)
	require.Equal(t, 1, got.Max)
	require.True(t, got.Expires.Equal(time.Date(2030, 1, 31, 17, 0, 0, 0, time.UTC)))

	cmdtest.RequireUsageErrors(t, usage(NewCmdInviteCreate), map[string][]string{
		"an argument":     {"extra"},
		"past duration":   {"--expires", "-1h"},
		"unknown expires": {"--expires", "soon"},
	})
}

func TestParseExpiry(t *testing.T) {
	now := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	for in, want := range map[string]time.Time{
		"7d":                   now.AddDate(0, 0, 7),
		" 72h ":                now.Add(72 * time.Hour),
		"2025-01-31T18:00:00Z": time.Date(2025, 1, 31, 18, 0, 0, 0, time.UTC),
	} {
		got, err := parseExpiry(in, now)
		require.NoError(t, err, in)
		require.True(t, got.Equal(want), "%q: got %s, want %s", in, got, want)
	}
	for _, in := range []string{"0d", "0s", "tomorrow"} {
		_, err := parseExpiry(in, now)
		require.Error(t, err, in)
	}
}

func TestInviteAndMembersListParseTheirOptions(t *testing.T) {
	for name, newCmd := range map[string]func(*cmdutil.Factory, func(*InLibraryOptions) error) *cli.Command{
		"invite list": NewCmdInviteList, "members list": NewCmdMembersList,
	} {
		t.Run(name, func(t *testing.T) {
			f, _ := cmdtest.NewFactory(t, "")
			var got *InLibraryOptions
			require.NoError(t, cmdtest.Run(t, newCmd(f, func(o *InLibraryOptions) error { got = o; return nil }),
				"--library", "Family archive", "--json"))
			require.NotNil(t, got)
			require.Equal(t, cmdutil.LibraryArg{Value: "Family archive", Help: "photoctl list"}, got.Library)
			require.True(t, got.JSON)
			require.NotNil(t, got.Conn)

			cmdtest.RequireUsageErrors(t, usage(newCmd), map[string][]string{"an argument": {"extra"}})
		})
	}
}

func TestInviteDisableParsesItsOptions(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	var got *InviteDisableOptions
	require.NoError(t, cmdtest.Run(t, NewCmdInviteDisable(f, func(o *InviteDisableOptions) error { got = o; return nil }),
		"--json", "inv_1", "inv_2"))
	require.NotNil(t, got)
	require.Equal(t, []string{"inv_1", "inv_2"}, got.IDs)
	require.True(t, got.JSON)

	cmdtest.RequireUsageErrors(t, usage(NewCmdInviteDisable), map[string][]string{"no id": {}})
}

func TestInvitePreviewAndJoinParseTheirOptions(t *testing.T) {
	for _, name := range []string{"preview", "join"} {
		t.Run(name, func(t *testing.T) {
			f, _ := cmdtest.NewFactory(t, "")
			var got *InviteTokenOptions
			runF := func(o *InviteTokenOptions) error { got = o; return nil }
			require.NoError(t, cmdtest.Run(t, NewCmdInviteToken(f, name, runF), "--json", "invite_abc"))
			require.NotNil(t, got)
			require.Equal(t, name == "join", got.Join)
			require.Equal(t, "invite_abc", got.Token)
			require.True(t, got.JSON)

			f, _ = cmdtest.NewFactory(t, "  invite_from_stdin\n")
			require.NoError(t, cmdtest.Run(t, NewCmdInviteToken(f, name, runF), "-"))
			require.Equal(t, "invite_from_stdin", got.Token, "- reads the token from standard input")
			require.False(t, got.JSON)

			for stdin, args := range map[string][]string{"": {"-"}, "one two": {"-"}, "x": {}, "y": {"a", "b"}} {
				f, _ := cmdtest.NewFactory(t, stdin)
				var usageErr *cmdutil.UsageError
				require.ErrorAs(t, cmdtest.Run(t, NewCmdInviteToken(f, name, nil), args...), &usageErr, "%q with %q on stdin", args, stdin)
			}
		})
	}
}

func TestMembersRoleParsesItsOptions(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	var got *MembersRoleOptions
	require.NoError(t, cmdtest.Run(t, NewCmdMembersRole(f, func(o *MembersRoleOptions) error { got = o; return nil }),
		"--library", "Family", "intuser_1", "collaborator"))
	require.NotNil(t, got)
	require.Equal(t, "Family", got.Library.Value)
	require.Equal(t, "intuser_1", got.User)
	require.Equal(t, "collaborator", got.Role)
	require.False(t, got.JSON)

	cmdtest.RequireUsageErrors(t, usage(NewCmdMembersRole), map[string][]string{
		"no role": {"intuser_1"}, "three": {"intuser_1", "viewer", "extra"},
	})
}

func TestMembersRemoveParsesItsOptions(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	var got *MembersRemoveOptions
	require.NoError(t, cmdtest.Run(t, NewCmdMembersRemove(f, func(o *MembersRemoveOptions) error { got = o; return nil }),
		"--library", "lib_1", "--json", "intuser_1", "intuser_2"))
	require.NotNil(t, got)
	require.Equal(t, "lib_1", got.Library.Value)
	require.Equal(t, []string{"intuser_1", "intuser_2"}, got.IDs)
	require.True(t, got.JSON)

	cmdtest.RequireUsageErrors(t, usage(NewCmdMembersRemove), map[string][]string{"no member": {"--library", "lib_1"}})
}

func TestMembersLeaveParsesItsOptions(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	var got *MembersLeaveOptions
	require.NoError(t, cmdtest.Run(t, NewCmdMembersLeave(f, func(o *MembersLeaveOptions) error { got = o; return nil }),
		"Family archive"))
	require.NotNil(t, got)
	require.Equal(t, "Family archive", got.Library)
	require.False(t, got.JSON)

	cmdtest.RequireUsageErrors(t, usage(NewCmdMembersLeave), map[string][]string{"no library": {}, "two": {"a", "b"}})
}

func TestForgetClearsOnlyTheLibraryThatWent(t *testing.T) {
	require.Equal(t, "", forget("lib_1", "lib_1"))
	require.Equal(t, "lib_2", forget("lib_2", "lib_1"))
}
