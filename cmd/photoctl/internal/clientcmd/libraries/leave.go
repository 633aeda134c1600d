package libraries

import (
	"context"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
)

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
		Action: func(c *cli.Context) error {
			args, err := cmdutil.NeedArgs(c, 1, 1, "want exactly one argument, the library id or name")
			if err != nil {
				return err
			}
			opts := &MembersLeaveOptions{ClientOptions: f.ClientOptions(c), Library: args[0], JSON: c.Bool("json")}
			return cmdutil.Run(c.Context, opts, runF, runMembersLeave)
		},
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
