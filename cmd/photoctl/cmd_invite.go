package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// newInviteCommand returns `photoctl invite`.
func newInviteCommand() *cli.Command {
	return &cli.Command{
		Name:  "invite",
		Usage: "Share a library: create, list and disable invitations; preview and join",
		Description: `The owner of a library invites people with a token that grants a role
(viewer or collaborator) to a number of accounts until it expires. Whoever
holds the token previews and joins with it. Needs a signed-in session, not
an API key.

Example:
   photoctl invite create --library "Family archive" --role collaborator --expires 72h --max 3
   photoctl invite preview invite_...        # as the invited user
   photoctl invite join invite_...
   photoctl members list --library "Family archive"`,
		Subcommands: []*cli.Command{newInviteCreateCommand(), newInviteListCommand(), newInviteDisableCommand(),
			newInviteTokenCommand("preview"), newInviteTokenCommand("join")},
		Action: cmdutil.GroupAction(cli.ShowSubcommandHelp),
	}
}

func newInviteCreateCommand() *cli.Command {
	return &cli.Command{
		Name:  "create",
		Usage: "Invite people to a library you own; prints the token once",
		Description: `Creates an invitation to the library (--library, your default, or your only
one) and prints its token, which cannot be shown again: pass it on to the
people you invite. --expires takes a duration from now (72h, 7d) or a time
(2025-01-31T18:00:00+01:00).

Example:
   photoctl invite create --role viewer --expires 7d --max 5
   TOKEN=$(photoctl invite create --library Family --role collaborator --expires 48h --max 1 --json | jq -r .token)`,
		Flags: append(cmdutil.ClientFlags(), libraryFlag(),
			&cli.StringFlag{Name: "role", Value: "viewer", Usage: "`ROLE` granted: viewer or collaborator"},
			&cli.StringFlag{Name: "expires", Value: "7d", Usage: "valid for `DURATION` (72h, 7d) or until a TIME (RFC 3339)"},
			&cli.IntFlag{Name: "max", Value: 1, Usage: "at most `N` accounts may join (1-1000)"},
			cmdutil.JSONFlag()),
		Action: cmdutil.ClientAction(0, 0, "", func(c *cli.Context, conn *cmdutil.APIConn, _ []string) error {
			expires, err := parseExpiry(c.String("expires"), time.Now())
			if err != nil {
				return cmdutil.UsageErrorf(c, "--expires: %v", err)
			}
			lib, err := cmdutil.PathLibrary(c, conn)
			if err != nil {
				return err
			}
			inv, err := conn.CreateInvitation(c.Context, lib, c.String("role"), expires, c.Int("max"))
			if err != nil {
				return err
			}
			io := cmdutil.NewStreams(c)
			if c.Bool("json") {
				return cmdutil.PrintJSON(io.Out, inv)
			}
			fmt.Fprintf(io.Err, "Created invitation %s (%s, %d place(s), until %s). Pass this token on; it is not shown again:\n",
				inv.ID, inv.Role, inv.MaxJoiners, inv.ExpiresAt.Local().Format("2006-01-02 15:04"))
			_, err = fmt.Fprintln(io.Out, inv.Token)
			return err
		}),
	}
}

func newInviteListCommand() *cli.Command {
	return &cli.Command{
		Name:  "list",
		Usage: "List a library's invitations (owner), newest first",
		Description: `Prints the invitations of the library with their state (active, exhausted,
expired or disabled) and places left; never their tokens.

Example:
   photoctl invite list --library "Family archive"
   photoctl invite list --json | jq -r '.[] | select(.state == "active") | .id'`,
		Flags: append(cmdutil.ClientFlags(), libraryFlag(), cmdutil.JSONFlag()),
		Action: cmdutil.ClientAction(0, 0, "", func(c *cli.Context, conn *cmdutil.APIConn, _ []string) error {
			lib, err := cmdutil.PathLibrary(c, conn)
			if err != nil {
				return err
			}
			invs, err := client.Collect(conn.Invitations(c.Context, lib))
			if err != nil {
				return err
			}
			return cmdutil.PrintList(cmdutil.NewStreams(c), c.Bool("json"), invs, []string{"ID", "ROLE", "STATE", "JOINED", "LEFT", "EXPIRES"},
				func(i api.Invitation) []string {
					return []string{i.ID, i.Role, i.State, strconv.Itoa(i.JoinerCount), strconv.Itoa(i.RemainingPlaces),
						i.ExpiresAt.Local().Format("2006-01-02 15:04")}
				})
		}),
	}
}

func newInviteDisableCommand() *cli.Command {
	return &cli.Command{
		Name:      "disable",
		Usage:     "Disable invitations (owner); members who joined stay",
		ArgsUsage: "INVITATION...",
		Description: `Disables invitations so their tokens admit nobody else; disabling one twice
changes nothing.

Example:
   photoctl invite disable inv_01hx...`,
		Flags: append(cmdutil.ClientFlags(), cmdutil.JSONFlag()),
		Action: cmdutil.ClientAction(1, -1, "give at least one invitation id (inv_…)",
			func(c *cli.Context, conn *cmdutil.APIConn, args []string) error {
				var done []*api.Invitation
				if err := cmdutil.EachID(args, "disable invitation", func(id string) error {
					inv, err := conn.DisableInvitation(c.Context, id)
					if err == nil {
						done = append(done, inv)
					}
					return err
				}); err != nil {
					return err
				}
				return cmdutil.PrintDone(cmdutil.NewStreams(c), c.Bool("json"), done, "Disabled %d invitation(s).", len(done))
			}),
	}
}

// newInviteTokenCommand returns `photoctl invite preview` or `invite join`.
func newInviteTokenCommand(name string) *cli.Command {
	usage, description := "Show what an invitation token offers", `Prints the library, its owner, the role and the state of the invitation
behind a token, without joining. The token is the argument, or is read from
standard input with "-".

Example:
   photoctl invite preview invite_...
   echo "$TOKEN" | photoctl invite preview --json -`
	if name == "join" {
		usage, description = "Join a library with an invitation token", `Joins the library of the invitation with its role. A disabled, expired or
used-up invitation, or a library you are in already, is refused (exit 1).
The token is the argument, or is read from standard input with "-".

Example:
   photoctl invite join invite_...
   photoctl libraries switch "Family archive"   # make it your default`
	}
	return &cli.Command{
		Name:        name,
		Usage:       usage,
		ArgsUsage:   "TOKEN | -",
		Description: description,
		Flags:       append(cmdutil.ClientFlags(), cmdutil.JSONFlag()),
		Action: cmdutil.ClientAction(1, 1, "want exactly one argument, the invitation token (or - to read it from stdin)",
			func(c *cli.Context, conn *cmdutil.APIConn, args []string) error {
				args, err := cmdutil.IDsOrStdin(c, args)
				if err == nil && len(args) != 1 {
					err = cmdutil.UsageErrorf(c, "want one token on standard input")
				}
				if err != nil {
					return err
				}
				token := strings.TrimSpace(args[0])
				io := cmdutil.NewStreams(c)
				if name == "join" {
					lib, err := conn.JoinInvitation(c.Context, token)
					if err != nil {
						return err
					}
					return cmdutil.PrintDone(io, c.Bool("json"), lib, "Joined library %s (%s) as %s.", lib.ID, lib.Name, lib.Role)
				}
				pv, err := conn.PreviewInvitation(c.Context, token)
				if err != nil {
					return err
				}
				return cmdutil.PrintRecords(io, c.Bool("json"), []*api.InvitationPreview{pv}, func(pv *api.InvitationPreview) [][]string {
					inv := pv.Invitation
					return [][]string{{"library", pv.Library.Name + " (" + pv.Library.ID + ")"},
						{"owner", cmdutil.OrDash(cmdutil.Deref(pv.Owner.DisplayName))}, {"role", inv.Role}, {"state", inv.State},
						{"places left", strconv.Itoa(inv.RemainingPlaces)}, {"expires", inv.ExpiresAt.Local().Format("2006-01-02 15:04")}}
				})
			}),
	}
}

// parseExpiry reads --expires: a duration from now (Go's, or whole days
// as 7d) or an RFC 3339 time.
func parseExpiry(s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	if days, ok := strings.CutSuffix(s, "d"); ok {
		if n, err := strconv.Atoi(days); err == nil && n > 0 {
			return now.AddDate(0, 0, n), nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil {
		if d <= 0 {
			return time.Time{}, fmt.Errorf("%q is not in the future", s)
		}
		return now.Add(d), nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("want a duration (72h, 7d) or an RFC 3339 time, got %q", s)
	}
	return t, nil
}
