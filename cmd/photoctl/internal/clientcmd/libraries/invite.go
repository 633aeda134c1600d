package libraries

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// NewCmdInvite returns `photoctl invite`, which only groups its subcommands.
func NewCmdInvite(f *cmdutil.Factory) *cli.Command {
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
		Subcommands: []*cli.Command{NewCmdInviteCreate(f, nil), NewCmdInviteList(f, nil), NewCmdInviteDisable(f, nil),
			NewCmdInviteToken(f, "preview", nil), NewCmdInviteToken(f, "join", nil)},
		Action: cmdutil.GroupAction(cli.ShowSubcommandHelp),
	}
}

// InviteCreateOptions are what `photoctl invite create` was asked for.
type InviteCreateOptions struct {
	cmdutil.ClientOptions

	Library cmdutil.LibraryArg
	Role    string
	Expires time.Time
	Max     int
	JSON    bool
}

// NewCmdInviteCreate returns `photoctl invite create`; runF, when not
// nil, gets the parsed options instead of runInviteCreate (tests).
func NewCmdInviteCreate(f *cmdutil.Factory, runF func(*InviteCreateOptions) error) *cli.Command {
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
		Flags: append(cmdutil.ClientFlags(), cmdutil.LibraryFlag(),
			&cli.StringFlag{Name: "role", Value: "viewer", Usage: "`ROLE` granted: viewer or collaborator"},
			&cli.StringFlag{Name: "expires", Value: "7d", Usage: "valid for `DURATION` (72h, 7d) or until a TIME (RFC 3339)"},
			&cli.IntFlag{Name: "max", Value: 1, Usage: "at most `N` accounts may join (1-1000)"},
			cmdutil.JSONFlag()),
		Action: func(c *cli.Context) error {
			if err := cmdutil.NoArgs(c); err != nil {
				return err
			}
			expires, err := parseExpiry(c.String("expires"), time.Now())
			if err != nil {
				return cmdutil.UsageErrorf(c, "--expires: %v", err)
			}
			opts := &InviteCreateOptions{ClientOptions: f.ClientOptions(c), Library: cmdutil.LibraryArgOf(c),
				Role: c.String("role"), Expires: expires, Max: c.Int("max"), JSON: c.Bool("json")}
			return cmdutil.Run(c.Context, opts, runF, runInviteCreate)
		},
	}
}

func runInviteCreate(ctx context.Context, opts *InviteCreateOptions) error {
	conn, lib, err := connectIn(ctx, opts.ClientOptions, opts.Library)
	if err != nil {
		return err
	}
	inv, err := conn.CreateInvitation(ctx, lib, opts.Role, opts.Expires, opts.Max)
	if err != nil {
		return err
	}
	return cmdutil.PrintSecret(opts.IO, opts.JSON, inv,
		fmt.Sprintf("Created invitation %s (%s, %d place(s), until %s). Pass this token on; it is not shown again:\n",
			inv.ID, inv.Role, inv.MaxJoiners, inv.ExpiresAt.Local().Format("2006-01-02 15:04")), inv.Token+"\n")
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

// InLibraryOptions are what a command that reads one library's list was
// asked for (`photoctl invite list`, `members list`).
type InLibraryOptions struct {
	cmdutil.ClientOptions

	Library cmdutil.LibraryArg
	JSON    bool
}

// NewCmdInviteList returns `photoctl invite list`; runF, when not nil,
// gets the parsed options instead of runInviteList (tests).
func NewCmdInviteList(f *cmdutil.Factory, runF func(*InLibraryOptions) error) *cli.Command {
	return &cli.Command{
		Name:  "list",
		Usage: "List a library's invitations (owner), newest first",
		Description: `Prints the invitations of the library with their state (active, exhausted,
expired or disabled) and places left; never their tokens.

Example:
   photoctl invite list --library "Family archive"
   photoctl invite list --json | jq -r '.[] | select(.state == "active") | .id'`,
		Flags:  append(cmdutil.ClientFlags(), cmdutil.LibraryFlag(), cmdutil.JSONFlag()),
		Action: inLibraryAction(f, runF, runInviteList),
	}
}

// inLibraryAction is the Action of such a command: no arguments, then
// --library and --json.
func inLibraryAction(f *cmdutil.Factory, runF func(*InLibraryOptions) error, run func(context.Context, *InLibraryOptions) error) cli.ActionFunc {
	return cmdutil.NoArgsAction(func(c *cli.Context) *InLibraryOptions {
		return &InLibraryOptions{ClientOptions: f.ClientOptions(c), Library: cmdutil.LibraryArgOf(c), JSON: c.Bool("json")}
	}, runF, run)
}

// connectIn connects and looks up the library a command works in.
func connectIn(ctx context.Context, co cmdutil.ClientOptions, l cmdutil.LibraryArg) (*cmdutil.APIConn, string, error) {
	conn, err := co.Conn()
	if err != nil {
		return nil, "", err
	}
	lib, err := l.ID(ctx, conn)
	return conn, lib, err
}

func runInviteList(ctx context.Context, opts *InLibraryOptions) error {
	conn, lib, err := connectIn(ctx, opts.ClientOptions, opts.Library)
	if err != nil {
		return err
	}
	invs, err := client.Collect(conn.Invitations(ctx, lib))
	if err != nil {
		return err
	}
	return cmdutil.PrintList(opts.IO, opts.JSON, invs, []string{"ID", "ROLE", "STATE", "JOINED", "LEFT", "EXPIRES"},
		func(i api.Invitation) []string {
			return []string{i.ID, i.Role, i.State, strconv.Itoa(i.JoinerCount), strconv.Itoa(i.RemainingPlaces),
				i.ExpiresAt.Local().Format("2006-01-02 15:04")}
		})
}
