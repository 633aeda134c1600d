package libraries

import (
	"context"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// InviteDisableOptions are what `photoctl invite disable` was asked for:
// the ids of the invitations.
type InviteDisableOptions struct{ cmdutil.EachOptions }

// NewCmdInviteDisable returns `photoctl invite disable`; runF, when not
// nil, gets the parsed options instead of runInviteDisable (tests).
var NewCmdInviteDisable = cmdutil.Constructor(cmdutil.Command[InviteDisableOptions]{
	Name:      "disable",
	Usage:     "Disable invitations (owner); members who joined stay",
	ArgsUsage: "INVITATION...",
	Description: `Disables invitations so their tokens admit nobody else; disabling one twice
changes nothing.

Example:
   photoctl invite disable inv_01hx...`,
	JSON: true,
	Args: cmdutil.AtLeastOne("give at least one invitation id (inv_…)"),
	Run:  runInviteDisable,
})

func runInviteDisable(ctx context.Context, conn *cmdutil.APIConn, opts *InviteDisableOptions) error {
	var done []*api.Invitation
	if err := cmdutil.EachID(opts.IDs, "disable invitation", func(id string) error {
		inv, err := conn.DisableInvitation(ctx, id)
		if err == nil {
			done = append(done, inv)
		}
		return err
	}); err != nil {
		return err
	}
	return cmdutil.PrintDone(opts.IO, opts.JSON, done, "Disabled %d invitation(s).", len(done))
}

// tokenHelp is the usage and description of `photoctl invite preview`
// and `invite join`.
var tokenHelp = map[string][2]string{
	"preview": {"Show what an invitation token offers", `Prints the library, its owner, the role and the state of the invitation
behind a token, without joining. The token is the argument, or is read from
standard input with "-".

Example:
   photoctl invite preview invite_...
   echo "$TOKEN" | photoctl invite preview --json -`},
	"join": {"Join a library with an invitation token", `Joins the library of the invitation with its role. A disabled, expired or
used-up invitation, or a library you are in already, is refused (exit 1).
The token is the argument, or is read from standard input with "-".

Example:
   photoctl invite join invite_...
   photoctl libraries switch "Family archive"   # make it your default`},
}

// InviteTokenOptions are what `photoctl invite preview` or `invite join`
// was asked for.
type InviteTokenOptions struct {
	cmdutil.ClientOptions

	// Join joins; else the invitation is only previewed.
	Join  bool
	Token string
}

// inviteTokenCmd is `photoctl invite preview` and `invite join` but for
// the name, help and Parse, which NewCmdInviteToken fills in.
var inviteTokenCmd = cmdutil.Command[InviteTokenOptions]{
	ArgsUsage: "TOKEN | -",
	JSON:      true,
	Args:      cmdutil.ExactlyOne("want exactly one argument, the invitation token (or - to read it from stdin)"),
	Run:       runInviteToken,
}

// NewCmdInviteToken returns `photoctl invite preview` or `invite join`
// (name); runF, when not nil, gets the parsed options instead of
// runInviteToken (tests).
func NewCmdInviteToken(f *cmdutil.Factory, name string, runF func(*InviteTokenOptions) error) *cli.Command {
	cmd := inviteTokenCmd
	cmd.Name, cmd.Usage, cmd.Description = name, tokenHelp[name][0], tokenHelp[name][1]
	cmd.Parse = func(c *cli.Context, args []string, opts *InviteTokenOptions) error {
		args, err := cmdutil.NewIDArgs(c, opts.IO.In, args).IDs()
		if err == nil && len(args) != 1 {
			err = cmdutil.UsageErrorf(c, "want one token on standard input")
		}
		if err != nil {
			return err
		}
		opts.Join, opts.Token = name == "join", strings.TrimSpace(args[0])
		return nil
	}
	return cmdutil.New(f, cmd, runF)
}

func runInviteToken(ctx context.Context, conn *cmdutil.APIConn, opts *InviteTokenOptions) error {
	if opts.Join {
		lib, err := conn.JoinInvitation(ctx, opts.Token)
		if err != nil {
			return err
		}
		return cmdutil.PrintDone(opts.IO, opts.JSON, lib, "Joined library %s (%s) as %s.", lib.ID, lib.Name, lib.Role)
	}
	pv, err := conn.PreviewInvitation(ctx, opts.Token)
	if err != nil {
		return err
	}
	return cmdutil.PrintRecords(opts.IO, opts.JSON, []*api.InvitationPreview{pv}, func(pv *api.InvitationPreview) [][]string {
		inv := pv.Invitation
		return [][]string{{"library", pv.Library.Name + " (" + pv.Library.ID + ")"},
			{"owner", cmdutil.OrDash(cmdutil.Deref(pv.Owner.DisplayName))}, {"role", inv.Role}, {"state", inv.State},
			{"places left", strconv.Itoa(inv.RemainingPlaces)}, {"expires", inv.ExpiresAt.Local().Format("2006-01-02 15:04")}}
	})
}
