package libraries

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

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
}

// NewCmdInviteCreate returns `photoctl invite create`; runF, when not
// nil, gets the parsed options instead of runInviteCreate (tests).
var NewCmdInviteCreate = cmdutil.Constructor(cmdutil.Command[InviteCreateOptions]{
	Name:  "create",
	Usage: "Invite people to a library you own; prints the token once",
	Description: `Creates an invitation to the library (--library, your default, or your only
one) and prints its token, which cannot be shown again: pass it on to the
people you invite. --expires takes a duration from now (72h, 7d) or a time
(2025-01-31T18:00:00+01:00).

Example:
   photoctl invite create --role viewer --expires 7d --max 5
   TOKEN=$(photoctl invite create --library Family --role collaborator --expires 48h --max 1 --json | jq -r .token)`,
	Flags: []cli.Flag{
		cmdutil.LibraryFlag(),
		&cli.StringFlag{Name: "role", Value: "viewer", Usage: "`ROLE` granted: viewer or collaborator"},
		&cli.StringFlag{Name: "expires", Value: "7d", Usage: "valid for `DURATION` (72h, 7d) or until a TIME (RFC 3339)"},
		&cli.IntFlag{Name: "max", Value: 1, Usage: "at most `N` accounts may join (1-1000)"},
	},
	JSON: true,
	Parse: func(c *cli.Context, _ []string, opts *InviteCreateOptions) (err error) {
		if opts.Expires, err = parseExpiry(c.String("expires"), time.Now()); err != nil {
			return cmdutil.UsageErrorf(c, "--expires: %v", err)
		}
		opts.Library, opts.Role, opts.Max = cmdutil.LibraryArgOf(c), c.String("role"), c.Int("max")
		return nil
	},
	Run: runInviteCreate,
})

func runInviteCreate(ctx context.Context, conn *cmdutil.APIConn, opts *InviteCreateOptions) error {
	lib, err := opts.Library.ID(ctx, conn)
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
}

// parseInLibrary is the Parse of such a command: --library.
func parseInLibrary(c *cli.Context, _ []string, opts *InLibraryOptions) error {
	opts.Library = cmdutil.LibraryArgOf(c)
	return nil
}

// NewCmdInviteList returns `photoctl invite list`; runF, when not nil,
// gets the parsed options instead of runInviteList (tests).
var NewCmdInviteList = cmdutil.Constructor(cmdutil.Command[InLibraryOptions]{
	Name:  "list",
	Usage: "List a library's invitations (owner), newest first",
	Description: `Prints the invitations of the library with their state (active, exhausted,
expired or disabled) and places left; never their tokens.

Example:
   photoctl invite list --library "Family archive"
   photoctl invite list --json | jq -r '.[] | select(.state == "active") | .id'`,
	Flags: []cli.Flag{cmdutil.LibraryFlag()},
	JSON:  true,
	Parse: parseInLibrary,
	Run:   runInviteList,
})

func runInviteList(ctx context.Context, conn *cmdutil.APIConn, opts *InLibraryOptions) error {
	lib, err := opts.Library.ID(ctx, conn)
	if err != nil {
		return err
	}
	return cmdutil.PrintAll(opts.IO, opts.JSON, conn.Invitations(ctx, lib),
		[]string{"ID", "ROLE", "STATE", "JOINED", "LEFT", "EXPIRES"},
		func(i api.Invitation) []string {
			return []string{i.ID, i.Role, i.State, strconv.Itoa(i.JoinerCount), strconv.Itoa(i.RemainingPlaces),
				i.ExpiresAt.Local().Format("2006-01-02 15:04")}
		})
}
