package auth

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
)

// ProfileJSON is one profile in `photoctl profiles list --json`; the
// credential itself is never printed.
type ProfileJSON struct {
	Name       string `json:"name"`
	Current    bool   `json:"current"`
	Server     string `json:"server"`
	Email      string `json:"email,omitempty"`
	Credential string `json:"credential"`
}

// NewCmdProfiles returns `photoctl profiles`, which only groups its subcommands.
func NewCmdProfiles(f *cmdutil.Factory) *cli.Command {
	return &cli.Command{
		Name:  "profiles",
		Usage: "List, switch and remove signed-in profiles",
		Description: `A profile is a server and the credential signed in there, saved by
'photoctl login' in $XDG_CONFIG_HOME/photoctl/credentials.json (mode 0600).
Commands use the current profile unless --profile or $PHOTOCTL_PROFILE names
another, or --server/--api-key (or $PHOTOCTL_SERVER/$PHOTOCTL_API_KEY) are
given.

Example:
   photoctl login --server https://photos.example.com --email you@example.com --profile home
   photoctl profiles list
   photoctl profiles use home`,
		Subcommands: []*cli.Command{NewCmdProfilesList(f, nil), NewCmdProfilesUse(f, nil), NewCmdProfilesRemove(f, nil)},
		Action:      cmdutil.GroupAction(cli.ShowSubcommandHelp),
	}
}

// ProfilesListOptions are what `photoctl profiles list` was asked for.
type ProfilesListOptions struct{ cmdutil.ClientOptions }

// NewCmdProfilesList returns `photoctl profiles list`; runF, when not nil,
// gets the parsed options instead of runProfilesList (tests).
var NewCmdProfilesList = cmdutil.Constructor(cmdutil.Command[ProfilesListOptions]{
	Name:  "list",
	Usage: "List the profiles",
	Description: `Prints every profile with its server, user and kind of credential; the
current one is marked with *.

Example:
   photoctl profiles list --json`,
	Local:   true,
	JSON:    true,
	Offline: runProfilesList,
})

func runProfilesList(_ context.Context, opts *ProfilesListOptions) error {
	store, err := cmdutil.NewCredentialsStore()
	if err != nil {
		return err
	}
	file, err := store.Load()
	if err != nil {
		return err
	}
	var list []ProfileJSON
	for _, name := range file.Names() {
		p := file.Profiles[name]
		list = append(list, ProfileJSON{Name: name, Current: name == file.Current, Server: p.Server,
			Email: p.Email, Credential: p.CredentialKind()})
	}
	return cmdutil.PrintList(opts.IO, opts.JSON, list, []string{"", "PROFILE", "SERVER", "USER", "CREDENTIAL"},
		func(p ProfileJSON) []string {
			mark := ""
			if p.Current {
				mark = "*"
			}
			return []string{mark, p.Name, p.Server, cmdutil.OrDash(p.Email), p.Credential}
		})
}

// ProfileOptions are what `photoctl profiles use` or `profiles remove` was
// asked for: the profile, which must exist.
type ProfileOptions struct {
	cmdutil.ClientOptions

	Name string
	// Help is the command whose --help a usage error names.
	Help string
}

// NewCmdProfilesUse returns `photoctl profiles use`; runF, when not nil,
// gets the parsed options instead of runProfilesUse (tests).
var NewCmdProfilesUse = cmdutil.Constructor(cmdutil.Command[ProfileOptions]{
	Name:      "use",
	Usage:     "Make a profile the current one",
	ArgsUsage: "NAME",
	Description: `Makes NAME the profile commands use by default.

Example:
   photoctl profiles use home`,
	Local:   true,
	Args:    cmdutil.ExactlyOne(wantProfile),
	Parse:   parseProfile,
	Offline: runProfilesUse,
})

func runProfilesUse(_ context.Context, opts *ProfileOptions) error {
	return updateProfile(opts, func(p *cmdutil.CredentialsFile) {
		p.Current = opts.Name
	})
}

// NewCmdProfilesRemove returns `photoctl profiles remove`; runF, when not
// nil, gets the parsed options instead of runProfilesRemove (tests).
var NewCmdProfilesRemove = cmdutil.Constructor(cmdutil.Command[ProfileOptions]{
	Name:      "remove",
	Usage:     "Forget a profile and its credential",
	ArgsUsage: "NAME",
	Description: `Removes NAME from the credentials file without contacting the server; use
'photoctl logout' first to end its session there.

Example:
   photoctl profiles remove old-server`,
	Local:   true,
	Args:    cmdutil.ExactlyOne(wantProfile),
	Parse:   parseProfile,
	Offline: runProfilesRemove,
})

func runProfilesRemove(_ context.Context, opts *ProfileOptions) error {
	return updateProfile(opts, func(p *cmdutil.CredentialsFile) {
		delete(p.Profiles, opts.Name)
		if p.Current == opts.Name {
			p.Current = ""
		}
	})
}

// wantProfile is what `profiles use` and `profiles remove` say without
// exactly one argument.
const wantProfile = "want exactly one argument, the profile name"

// parseProfile reads the one argument of `profiles use` and `profiles
// remove`, the profile name.
func parseProfile(c *cli.Context, args []string, opts *ProfileOptions) error {
	opts.Name, opts.Help = args[0], c.Command.HelpName
	return nil
}

// updateProfile applies fn to the credentials file once the profile
// opts names is known to be in it.
func updateProfile(opts *ProfileOptions, fn func(*cmdutil.CredentialsFile)) error {
	store, err := cmdutil.NewCredentialsStore()
	if err != nil {
		return err
	}
	return store.Update(func(p *cmdutil.CredentialsFile) error {
		if p.Profiles[opts.Name] == nil {
			return &cmdutil.UsageError{Err: fmt.Errorf("no profile %q", opts.Name), Help: opts.Help}
		}
		fn(p)
		return nil
	})
}
