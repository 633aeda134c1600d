package libraries

import (
	"context"
	"time"

	"github.com/urfave/cli/v2"

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
var NewCmdMembersList = cmdutil.Constructor(cmdutil.Command[InLibraryOptions]{
	Name:  "list",
	Usage: "List a library's members, most recently joined first",
	Description: `Prints the current members of the library (--library, your default, or your
only one) with their roles; any member may list them.

Example:
   photoctl members list --library "Family archive" --json | jq -r '.[] | select(.role == "viewer") | .id'`,
	Flags: []cli.Flag{cmdutil.LibraryFlag()},
	JSON:  true,
	Parse: parseInLibrary,
	Run:   runMembersList,
})

func runMembersList(ctx context.Context, conn *cmdutil.APIConn, opts *InLibraryOptions) error {
	lib, err := opts.Library.ID(ctx, conn)
	if err != nil {
		return err
	}
	return cmdutil.PrintAll(opts.IO, opts.JSON, conn.Members(ctx, lib), []string{"ID", "NAME", "ROLE", "JOINED"},
		func(m api.Member) []string {
			return []string{m.ID, cmdutil.OrDash(cmdutil.Deref(m.DisplayName)), m.Role, m.JoinedAt.Local().Format(time.DateOnly)}
		})
}

// MembersRoleOptions are what `photoctl members role` was asked for.
type MembersRoleOptions struct {
	cmdutil.ClientOptions

	Library    cmdutil.LibraryArg
	User, Role string
}

// NewCmdMembersRole returns `photoctl members role`; runF, when not nil,
// gets the parsed options instead of runMembersRole (tests).
var NewCmdMembersRole = cmdutil.Constructor(cmdutil.Command[MembersRoleOptions]{
	Name:      "role",
	Usage:     "Change a member's role (owner)",
	ArgsUsage: "USER ROLE",
	Description: `Makes a member a viewer (reads) or a collaborator (reads and writes).

Example:
   photoctl members role --library "Family archive" intuser_01hx... collaborator`,
	Flags: []cli.Flag{cmdutil.LibraryFlag()},
	JSON:  true,
	Args:  cmdutil.Between(2, 2, "want the member's user id and the role (viewer or collaborator)"),
	Parse: func(c *cli.Context, args []string, opts *MembersRoleOptions) error {
		opts.Library, opts.User, opts.Role = cmdutil.LibraryArgOf(c), args[0], args[1]
		return nil
	},
	Run: runMembersRole,
})

func runMembersRole(ctx context.Context, conn *cmdutil.APIConn, opts *MembersRoleOptions) error {
	lib, err := opts.Library.ID(ctx, conn)
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
var NewCmdMembersRemove = cmdutil.Constructor(cmdutil.Command[MembersRemoveOptions]{
	Name:      "remove",
	Usage:     "Remove members from a library (owner)",
	ArgsUsage: "USER...",
	Description: `Removes members at once: their sessions and API keys lose the library. A
removed member can rejoin only through an invitation made afterwards.

Example:
   photoctl members remove --library "Family archive" intuser_01hx...`,
	Flags: []cli.Flag{cmdutil.LibraryFlag()},
	JSON:  true,
	Args:  cmdutil.AtLeastOne("give at least one member's user id"),
	Parse: func(c *cli.Context, _ []string, opts *MembersRemoveOptions) error {
		opts.Library = cmdutil.LibraryArgOf(c)
		return nil
	},
	Run: runMembersRemove,
})

func runMembersRemove(ctx context.Context, conn *cmdutil.APIConn, opts *MembersRemoveOptions) error {
	lib, err := opts.Library.ID(ctx, conn)
	if err != nil {
		return err
	}
	return opts.ForEach("Removed", "removed", "member", func(id string) (string, error) {
		return id, conn.RemoveMember(ctx, lib, id)
	})
}

// MembersLeaveOptions are what `photoctl members leave` was asked for.
type MembersLeaveOptions struct {
	cmdutil.ClientOptions

	// Library is the id or name of the library to leave.
	Library string
}

// NewCmdMembersLeave returns `photoctl members leave`; runF, when not nil,
// gets the parsed options instead of runMembersLeave (tests).
var NewCmdMembersLeave = cmdutil.Constructor(cmdutil.Command[MembersLeaveOptions]{
	Name:      "leave",
	Usage:     "Leave a library you joined",
	ArgsUsage: "LIBRARY",
	Description: `Ends your membership of a library (by id or name); its owner cannot leave.
If it was your profile's default library, the default is cleared.

Example:
   photoctl members leave "Family archive"`,
	JSON: true,
	Args: cmdutil.ExactlyOne(wantLibrary),
	Parse: func(_ *cli.Context, args []string, opts *MembersLeaveOptions) error {
		opts.Library = args[0]
		return nil
	},
	Run: runMembersLeave,
})

func runMembersLeave(ctx context.Context, conn *cmdutil.APIConn, opts *MembersLeaveOptions) error {
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
