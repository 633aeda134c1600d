package main

import (
	"time"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// newMembersCommand returns `photoctl members`.
func newMembersCommand() *cli.Command {
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
		Subcommands: []*cli.Command{newMembersListCommand(), newMembersRoleCommand(), newMembersRemoveCommand(),
			newMembersLeaveCommand()},
		Action: cmdutil.GroupAction(cli.ShowSubcommandHelp),
	}
}

func newMembersListCommand() *cli.Command {
	return &cli.Command{
		Name:  "list",
		Usage: "List a library's members, most recently joined first",
		Description: `Prints the current members of the library (--library, your default, or your
only one) with their roles; any member may list them.

Example:
   photoctl members list --library "Family archive" --json | jq -r '.[] | select(.role == "viewer") | .id'`,
		Flags: append(cmdutil.ClientFlags(), libraryFlag(), cmdutil.JSONFlag()),
		Action: cmdutil.ClientAction(0, 0, "", func(c *cli.Context, conn *cmdutil.APIConn, _ []string) error {
			lib, err := cmdutil.PathLibrary(c, conn)
			if err != nil {
				return err
			}
			members, err := client.Collect(conn.Members(c.Context, lib))
			if err != nil {
				return err
			}
			return cmdutil.PrintList(cmdutil.NewStreams(c), c.Bool("json"), members, []string{"ID", "NAME", "ROLE", "JOINED"},
				func(m api.Member) []string {
					return []string{m.ID, cmdutil.OrDash(cmdutil.Deref(m.DisplayName)), m.Role, m.JoinedAt.Local().Format(time.DateOnly)}
				})
		}),
	}
}

func newMembersRoleCommand() *cli.Command {
	return &cli.Command{
		Name:      "role",
		Usage:     "Change a member's role (owner)",
		ArgsUsage: "USER ROLE",
		Description: `Makes a member a viewer (reads) or a collaborator (reads and writes).

Example:
   photoctl members role --library "Family archive" intuser_01hx... collaborator`,
		Flags: append(cmdutil.ClientFlags(), libraryFlag(), cmdutil.JSONFlag()),
		Action: cmdutil.ClientAction(2, 2, "want the member's user id and the role (viewer or collaborator)",
			func(c *cli.Context, conn *cmdutil.APIConn, args []string) error {
				lib, err := cmdutil.PathLibrary(c, conn)
				if err != nil {
					return err
				}
				m, err := conn.SetMemberRole(c.Context, lib, args[0], args[1])
				if err != nil {
					return err
				}
				return cmdutil.PrintDone(cmdutil.NewStreams(c), c.Bool("json"), m, "Member %s (%s) is now a %s.", m.ID,
					cmdutil.OrDash(cmdutil.Deref(m.DisplayName)), m.Role)
			}),
	}
}

func newMembersRemoveCommand() *cli.Command {
	return &cli.Command{
		Name:      "remove",
		Usage:     "Remove members from a library (owner)",
		ArgsUsage: "USER...",
		Description: `Removes members at once: their sessions and API keys lose the library. A
removed member can rejoin only through an invitation made afterwards.

Example:
   photoctl members remove --library "Family archive" intuser_01hx...`,
		Flags: append(cmdutil.ClientFlags(), libraryFlag(), cmdutil.JSONFlag()),
		Action: cmdutil.ClientAction(1, -1, "give at least one member's user id",
			func(c *cli.Context, conn *cmdutil.APIConn, args []string) error {
				lib, err := cmdutil.PathLibrary(c, conn)
				if err != nil {
					return err
				}
				return cmdutil.ActOnEach(cmdutil.NewStreams(c), c.Bool("json"), args, "Removed", "removed", "member", func(id string) (string, error) {
					return id, conn.RemoveMember(c.Context, lib, id)
				})
			}),
	}
}

func newMembersLeaveCommand() *cli.Command {
	return &cli.Command{
		Name:      "leave",
		Usage:     "Leave a library you joined",
		ArgsUsage: "LIBRARY",
		Description: `Ends your membership of a library (by id or name); its owner cannot leave.
If it was your profile's default library, the default is cleared.

Example:
   photoctl members leave "Family archive"`,
		Flags: append(cmdutil.ClientFlags(), cmdutil.JSONFlag()),
		Action: cmdutil.ClientAction(1, 1, "want exactly one argument, the library id or name",
			func(c *cli.Context, conn *cmdutil.APIConn, args []string) error {
				lib, err := cmdutil.LookupLibrary(c.Context, conn, args[0], "all")
				if err != nil {
					return err
				}
				if err := conn.LeaveLibrary(c.Context, lib); err != nil {
					return err
				}
				if err := cmdutil.SaveProfileLibrary(conn, func(cur string) string { return forget(cur, lib) }); err != nil {
					return err
				}
				return cmdutil.PrintDone(cmdutil.NewStreams(c), c.Bool("json"), map[string]string{"left": lib}, "Left library %s.", lib)
			}),
	}
}
