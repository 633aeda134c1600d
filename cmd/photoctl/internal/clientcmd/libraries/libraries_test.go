package libraries

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdtest"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
)

func TestLibrariesListParsesItsOptions(t *testing.T) {
	got := cmdtest.Parse(t, NewCmdList, "", "--state", "trashed", "--json")
	require.Equal(t, "trashed", got.State)
	require.True(t, got.JSON)
	require.NotNil(t, got.IO)
	require.NotNil(t, got.Conn)

	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdList), map[string][]string{"an argument": {"extra"}})
}

func TestLibrariesCreateParsesItsOptions(t *testing.T) {
	got := cmdtest.Parse(t, NewCmdCreate, "", "Family archive")
	require.Equal(t, "Family archive", got.Name)
	require.False(t, got.JSON)

	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdCreate), map[string][]string{"no name": {}, "two names": {"a", "b"}})
}

func TestLibrariesSwitchTrashRestoreParseTheirOptions(t *testing.T) {
	for _, name := range []string{"switch", "trash", "restore"} {
		t.Run(name, func(t *testing.T) {
			newCmd := func(f *cmdutil.Factory, runF func(*ActionOptions) error) *cli.Command {
				return NewCmdAction(f, name, runF)
			}
			require.Contains(t, newCmd(nil, nil).Description, "Example:")
			got := cmdtest.Parse(t, newCmd, "", "--json", "Old imports")
			require.Equal(t, name, got.Action)
			require.Equal(t, "Old imports", got.Library)
			require.True(t, got.JSON)

			cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(newCmd), map[string][]string{"no library": {}, "two libraries": {"a", "b"}})
		})
	}
}

func TestInviteCreateParsesItsOptions(t *testing.T) {
	before := time.Now()
	got := cmdtest.Parse(t, NewCmdInviteCreate, "", "--library", "Family", "--role", "collaborator", "--expires", "48h",
		"--max", "3", "--json")
	require.Equal(t, cmdutil.LibraryArg{Value: "Family", Help: "photoctl create"}, got.Library)
	require.Equal(t, "collaborator", got.Role)
	require.WithinRange(t, got.Expires, before.Add(48*time.Hour), time.Now().Add(48*time.Hour))
	require.Equal(t, 3, got.Max)
	require.True(t, got.JSON)

	got = cmdtest.Parse(t, NewCmdInviteCreate, "", "--expires", "2030-01-31T18:00:00+01:00")
	require.Equal(t, "", got.Library.Value, "the default library")
	require.Equal(t, "viewer", got.Role)
	require.Equal(t, 1, got.Max)
	require.True(t, got.Expires.Equal(time.Date(2030, 1, 31, 17, 0, 0, 0, time.UTC)))

	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdInviteCreate), map[string][]string{
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
			got := cmdtest.Parse(t, newCmd, "", "--library", "Family archive", "--json")
			require.Equal(t, cmdutil.LibraryArg{Value: "Family archive", Help: "photoctl list"}, got.Library)
			require.True(t, got.JSON)
			require.NotNil(t, got.Conn)

			cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(newCmd), map[string][]string{"an argument": {"extra"}})
		})
	}
}

func TestInviteDisableParsesItsOptions(t *testing.T) {
	got := cmdtest.Parse(t, NewCmdInviteDisable, "", "--json", "inv_1", "inv_2")
	require.Equal(t, []string{"inv_1", "inv_2"}, got.IDs)
	require.True(t, got.JSON)

	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdInviteDisable), map[string][]string{"no id": {}})
}

func TestInvitePreviewAndJoinParseTheirOptions(t *testing.T) {
	for _, name := range []string{"preview", "join"} {
		t.Run(name, func(t *testing.T) {
			newCmd := func(f *cmdutil.Factory, runF func(*InviteTokenOptions) error) *cli.Command {
				return NewCmdInviteToken(f, name, runF)
			}
			got := cmdtest.Parse(t, newCmd, "", "--json", "invite_abc")
			require.Equal(t, name == "join", got.Join)
			require.Equal(t, "invite_abc", got.Token)
			require.True(t, got.JSON)

			got = cmdtest.Parse(t, newCmd, "  invite_from_stdin\n", "-")
			require.Equal(t, "invite_from_stdin", got.Token, "- reads the token from standard input")
			require.False(t, got.JSON)

			for stdin, args := range map[string][]string{"": {"-"}, "one two": {"-"}, "x": {}, "y": {"a", "b"}} {
				f, _ := cmdtest.NewFactory(t, stdin)
				var usageErr *cmdutil.UsageError
				require.ErrorAs(t, cmdtest.Run(t, newCmd(f, nil), args...), &usageErr, "%q with %q on stdin", args, stdin)
			}
		})
	}
}

func TestMembersRoleParsesItsOptions(t *testing.T) {
	got := cmdtest.Parse(t, NewCmdMembersRole, "", "--library", "Family", "intuser_1", "collaborator")
	require.Equal(t, "Family", got.Library.Value)
	require.Equal(t, "intuser_1", got.User)
	require.Equal(t, "collaborator", got.Role)
	require.False(t, got.JSON)

	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdMembersRole), map[string][]string{
		"no role": {"intuser_1"}, "three": {"intuser_1", "viewer", "extra"},
	})
}

func TestMembersRemoveParsesItsOptions(t *testing.T) {
	got := cmdtest.Parse(t, NewCmdMembersRemove, "", "--library", "lib_1", "--json", "intuser_1", "intuser_2")
	require.Equal(t, "lib_1", got.Library.Value)
	require.Equal(t, []string{"intuser_1", "intuser_2"}, got.IDs)
	require.True(t, got.JSON)

	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdMembersRemove), map[string][]string{"no member": {"--library", "lib_1"}})
}

func TestMembersLeaveParsesItsOptions(t *testing.T) {
	got := cmdtest.Parse(t, NewCmdMembersLeave, "", "Family archive")
	require.Equal(t, "Family archive", got.Library)
	require.False(t, got.JSON)

	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdMembersLeave), map[string][]string{"no library": {}, "two": {"a", "b"}})
}

func TestForgetClearsOnlyTheLibraryThatWent(t *testing.T) {
	require.Equal(t, "", forget("lib_1", "lib_1"))
	require.Equal(t, "lib_2", forget("lib_2", "lib_1"))
}
