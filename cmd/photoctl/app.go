package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/catalog"
)

// Exit codes. They are a contract with scripts: listed under EXIT STATUS in
// the root help and chosen in exactly one place, exitCode.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
	exitPartial = 3
	exitAuth    = 4
)

const exitStatusHelp = `
EXIT STATUS:
   0  success
   1  failure
   2  usage error: unknown command or flag, missing or bad argument, invalid configuration
   3  partial failure: some items failed, the others succeeded
   4  authentication or permission failure
`

// newApp builds the command tree. It has no side effects until run.
func newApp(f *factory) *cli.App {
	a := &cli.App{
		Name:     "photoctl",
		HelpName: "photoctl",
		Usage:    "self-hosted photo and video library",
		Description: `photoctl runs the photo library server and administers it.

Configuration is read from built-in defaults, then the TOML file given by
--config, then PHOTOCTL_* environment variables, then command-line flags;
each layer overrides the one before. See 'photoctl config show'.

Example:
   photoctl admin create-user --email you@example.com --password-stdin
   photoctl serve --listen 127.0.0.1:2283`,
		// --version prints "photoctl version X" and, under it, the credits
		// the built-in data's licences ask for.
		Version: cmdutil.Version + "\n" + dataCredits,
		Flags: append([]cli.Flag{
			&cli.StringFlag{
				Name:        "config",
				Usage:       "read configuration from `FILE` (TOML); a missing default file is ignored",
				EnvVars:     []string{"PHOTOCTL_CONFIG"},
				DefaultText: "$XDG_CONFIG_HOME/photoctl/config.toml",
			},
		}, cmdutil.ClientFlags()...),
		// serverCommands: all of them, or in the client build ones that hand
		// the command line to photoctl-server.
		Commands: append(append(serverCommands(f), newCompletionCommand(f)), clientCommands(f.Factory)...),
		// Answers --generate-bash-completion for `photoctl completion`'s scripts.
		EnableBashCompletion:  true,
		CustomAppHelpTemplate: cli.AppHelpTemplate + exitStatusHelp,
		// execute prints errors and picks exit codes; urfave must not exit.
		ExitErrHandler: func(*cli.Context, error) {},
		OnUsageError:   onUsageError,
		Action:         cmdutil.GroupAction(cli.ShowAppHelp),
	}
	setUsageErrorHandler(a.Commands)
	return a
}

// execute runs a with args, reports any error once on stderr, and returns
// the process exit code. Flags may follow the arguments (reorderFlags).
func execute(ctx context.Context, a *cli.App, args []string) int {
	args, err := reorderFlags(a, args)
	if err == nil {
		err = a.RunContext(ctx, args)
	}
	if a.ErrWriter == nil { // set up by RunContext, which a bad line skips
		a.ErrWriter = os.Stderr
	}
	if err != nil {
		fmt.Fprintf(a.ErrWriter, "photoctl: %s\n", errorMessage(err))
		var usage *cmdutil.UsageError
		if errors.As(err, &usage) && usage.Help != "" {
			fmt.Fprintf(a.ErrWriter, "Run '%s --help' for usage.\n", usage.Help)
		}
	}
	return exitCode(err)
}

// errorMessage is how err reads on stderr, on one line: the error, or for
// the server's "library_id is required" (several libraries and none
// named) what to do about it. Text from the server is sanitised.
func errorMessage(err error) string {
	var apiErr *client.APIError
	if errors.As(err, &apiErr) && apiErr.Status == 422 {
		for _, f := range apiErr.Fields {
			if f.Type == "missing" && len(f.Loc) > 0 && f.Loc[len(f.Loc)-1] == "library_id" {
				return "you have several libraries: name one with --library NAME (or $PHOTOCTL_LIBRARY), " +
					"or choose a default with 'photoctl libraries switch NAME'"
			}
		}
	}
	return cmdutil.SanitizeLines(err.Error())
}

// exitCode maps an error to the process exit code. It is the only place
// that does so.
func exitCode(err error) int {
	var (
		usage   *cmdutil.UsageError
		cliErr  cli.ExitCoder
		invalid *catalog.ValidationError
	)
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &usage):
		return exitUsage
	case errors.As(err, &cliErr):
		// urfave reports an unknown help topic ("photoctl help bogus") this way.
		return exitUsage
	case errors.As(err, &invalid):
		// The server rejected an argument (an e-mail that is not one, say).
		return exitUsage
	case errors.Is(err, cmdutil.ErrPartialFailure):
		return exitPartial
	case errors.Is(err, catalog.ErrUnauthenticated), errors.Is(err, catalog.ErrForbidden):
		return exitAuth
	case errors.Is(err, client.ErrUnauthenticated), errors.Is(err, client.ErrForbidden):
		return exitAuth
	case errors.Is(err, client.ErrInvalid):
		// The server refused an argument (422).
		return exitUsage
	default:
		return exitFailure
	}
}

// onUsageError turns a flag parsing error into a cmdutil.UsageError instead of
// urfave's default, which prints the error and the help to stdout.
func onUsageError(c *cli.Context, err error, _ bool) error {
	return &cmdutil.UsageError{Err: err, Help: c.Command.HelpName}
}

// setUsageErrorHandler installs onUsageError on every command of the tree;
// urfave copies the app's handler to the root command only.
func setUsageErrorHandler(cmds []*cli.Command) {
	for _, c := range cmds {
		if c.OnUsageError == nil {
			c.OnUsageError = onUsageError
		}
		setUsageErrorHandler(c.Subcommands)
	}
}
