package libraries

import (
	"context"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// NewCmdMembers returns `photoctl members`, which only groups its subcommands.
func NewCmdMembers(f *cmdutil.Factory) *cli.Command {
	return &cli.Command{
		Name:  "members",
		Usage: "List a library's members, change their roles, remove them, or leave",
		Description: `The members of a library are its owner and the people who joined it with an
invitation (photoctl invite), each a viewer or a collaborator. Members are
named by user id (intuser_…). Needs a signed-in session, not an API key.

Example:
   photoctl members list --library "Family archive"
   photoctl members role --library "Family archive" intuser_01hx... collaborator
   photoctl members leave "Family archive"`,
		Subcommands: []*cli.Command{NewCmdMembersList(f, nil), NewCmdMembersRole(f, nil), NewCmdMembersRemove(f, nil),
			NewCmdMembersLeave(f, nil)},
		Action: cmdutil.GroupAction(cli.ShowSubcommandHelp),
	}
}

// NewCmdMembersList returns `photoctl members list`; runF, when not nil,
// gets the parsed options instead of runMembersList (tests).
func NewCmdMembersList(f *cmdutil.Factory, runF func(*InLibraryOptions) error) *cli.Command {
	return &cli.Command{
		Name:  "list",
		Usage: "List a library's members, most recently joined first",
		Description: `Prints the current members of the library (--library, your default, or your
only one) with their roles; any member may list them.

Example:
   photoctl members list --library "Family archive" --json | jq -r '.[] | select(.role == "viewer") | .id'`,
		Flags:  append(cmdutil.ClientFlags(), cmdutil.LibraryFlag(), cmdutil.JSONFlag()),
		Action: inLibraryAction(f, runF, runMembersList),
	}
}

func runMembersList(ctx context.Context, opts *InLibraryOptions) error {
	conn, lib, err := connectIn(ctx, opts.ClientOptions, opts.Library)
	if err != nil {
		return err
	}
	members, err := client.Collect(conn.Members(ctx, lib))
	if err != nil {
		return err
	}
	return cmdutil.PrintList(opts.IO, opts.JSON, members, []string{"ID", "NAME", "ROLE", "JOINED"},
		func(m api.Member) []string {
			return []string{m.ID, cmdutil.OrDash(cmdutil.Deref(m.DisplayName)), m.Role, m.JoinedAt.Local().Format(time.DateOnly)}
		})
}

// MembersRoleOptions are what `photoctl members role` was asked for.
type MembersRoleOptions struct {
	cmdutil.ClientOptions

	Library    cmdutil.LibraryArg
	User, Role string
	JSON       bool
}

// NewCmdMembersRole returns `photoctl members role`; runF, when not nil,
// gets the parsed options instead of runMembersRole (tests).
func NewCmdMembersRole(f *cmdutil.Factory, runF func(*MembersRoleOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "role",
		Usage:     "Change a member's role (owner)",
		ArgsUsage: "USER ROLE",
		Description: `Makes a member a viewer (reads) or a collaborator (reads and writes).

Example:
   photoctl members role --library "Family archive" intuser_01hx... collaborator`,
		Flags: append(cmdutil.ClientFlags(), cmdutil.LibraryFlag(), cmdutil.JSONFlag()),
		Action: func(c *cli.Context) error {
			args, err := cmdutil.NeedArgs(c, 2, 2, "want the member's user id and the role (viewer or collaborator)")
			if err != nil {
				return err
			}
			opts := &MembersRoleOptions{ClientOptions: f.ClientOptions(c), Library: cmdutil.LibraryArgOf(c),
				User: args[0], Role: args[1], JSON: c.Bool("json")}
			return cmdutil.Run(c.Context, opts, runF, runMembersRole)
		},
	}
}

func runMembersRole(ctx context.Context, opts *MembersRoleOptions) error {
	conn, lib, err := connectIn(ctx, opts.ClientOptions, opts.Library)
	if err != nil {
		return err
	}
	m, err := conn.SetMemberRole(ctx, lib, opts.User, opts.Role)
	if err != nil {
		return err
	}
	return cmdutil.PrintDone(opts.IO, opts.JSON, m, "Member %s (%s) is now a %s.", m.ID,
		cmdutil.OrDash(cmdutil.Deref(m.DisplayName)), m.Role)
}

// MembersRemoveOptions are what `photoctl members remove` was asked for:
// the user ids of the members, and their library.
type MembersRemoveOptions struct {
	cmdutil.EachOptions

	Library cmdutil.LibraryArg
}

// NewCmdMembersRemove returns `photoctl members remove`; runF, when not
// nil, gets the parsed options instead of runMembersRemove (tests).
func NewCmdMembersRemove(f *cmdutil.Factory, runF func(*MembersRemoveOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "remove",
		Usage:     "Remove members from a library (owner)",
		ArgsUsage: "USER...",
		Description: `Removes members at once: their sessions and API keys lose the library. A
removed member can rejoin only through an invitation made afterwards.

Example:
   photoctl members remove --library "Family archive" intuser_01hx...`,
		Flags: append(cmdutil.ClientFlags(), cmdutil.LibraryFlag(), cmdutil.JSONFlag()),
		Action: func(c *cli.Context) error {
			each, err := cmdutil.ParseEach(f, c, "give at least one member's user id")
			if err != nil {
				return err
			}
			opts := &MembersRemoveOptions{EachOptions: each, Library: cmdutil.LibraryArgOf(c)}
			return cmdutil.Run(c.Context, opts, runF, runMembersRemove)
		},
	}
}

func runMembersRemove(ctx context.Context, opts *MembersRemoveOptions) error {
	conn, lib, err := connectIn(ctx, opts.ClientOptions, opts.Library)
	if err != nil {
		return err
	}
	return cmdutil.ActOnEach(opts.IO, opts.JSON, opts.IDs, "Removed", "removed", "member", func(id string) (string, error) {
		return id, conn.RemoveMember(ctx, lib, id)
	})
}

// MembersLeaveOptions are what `photoctl members leave` was asked for.
type MembersLeaveOptions struct {
	cmdutil.ClientOptions

	// Library is the id or name of the library to leave.
	Library string
	JSON    bool
}

// NewCmdMembersLeave returns `photoctl members leave`; runF, when not nil,
// gets the parsed options instead of runMembersLeave (tests).
func NewCmdMembersLeave(f *cmdutil.Factory, runF func(*MembersLeaveOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "leave",
		Usage:     "Leave a library you joined",
		ArgsUsage: "LIBRARY",
		Description: `Ends your membership of a library (by id or name); its owner cannot leave.
If it was your profile's default library, the default is cleared.

Example:
   photoctl members leave "Family archive"`,
		Flags: append(cmdutil.ClientFlags(), cmdutil.JSONFlag()),
		Action: cmdutil.OneArgAction(wantLibrary, func(c *cli.Context, lib string) *MembersLeaveOptions {
			return &MembersLeaveOptions{ClientOptions: f.ClientOptions(c), Library: lib, JSON: c.Bool("json")}
		}, runF, runMembersLeave),
	}
}

func runMembersLeave(ctx context.Context, opts *MembersLeaveOptions) error {
	conn, err := opts.Conn()
	if err != nil {
		return err
	}
	lib, err := cmdutil.LookupLibrary(ctx, conn, opts.Library, "all")
	if err != nil {
		return err
	}
	if err := conn.LeaveLibrary(ctx, lib); err != nil {
		return err
	}
	if err := cmdutil.SaveProfileLibrary(conn, func(cur string) string { return forget(cur, lib) }); err != nil {
		return err
	}
	return cmdutil.PrintDone(opts.IO, opts.JSON, map[string]string{"left": lib}, "Left library %s.", lib)
}
