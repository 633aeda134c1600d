package main

import (
	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
)

// profileJSON is one profile in `photoctl profiles list --json`; the
// credential itself is never printed.
type profileJSON struct {
	Name       string `json:"name"`
	Current    bool   `json:"current"`
	Server     string `json:"server"`
	Email      string `json:"email,omitempty"`
	Credential string `json:"credential"`
}

// newProfilesCommand returns `photoctl profiles`.
func newProfilesCommand() *cli.Command {
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
		Subcommands: []*cli.Command{
			{
				Name:  "list",
				Usage: "List the profiles",
				Description: `Prints every profile with its server, user and kind of credential; the
current one is marked with *.

Example:
   photoctl profiles list --json`,
				Flags: []cli.Flag{cmdutil.JSONFlag()},
				Action: func(c *cli.Context) error {
					if err := cmdutil.NoArgs(c); err != nil {
						return err
					}
					return runProfilesList(c)
				},
			},
			{
				Name:      "use",
				Usage:     "Make a profile the current one",
				ArgsUsage: "NAME",
				Description: `Makes NAME the profile commands use by default.

Example:
   photoctl profiles use home`,
				Action: func(c *cli.Context) error {
					if c.NArg() != 1 {
						return cmdutil.UsageErrorf(c, "want exactly one argument, the profile name")
					}
					return updateProfiles(c, func(p *cmdutil.CredentialsFile, name string) error {
						p.Current = name
						return nil
					})
				},
			},
			{
				Name:      "remove",
				Usage:     "Forget a profile and its credential",
				ArgsUsage: "NAME",
				Description: `Removes NAME from the credentials file without contacting the server; use
'photoctl logout' first to end its session there.

Example:
   photoctl profiles remove old-server`,
				Action: func(c *cli.Context) error {
					if c.NArg() != 1 {
						return cmdutil.UsageErrorf(c, "want exactly one argument, the profile name")
					}
					return updateProfiles(c, func(p *cmdutil.CredentialsFile, name string) error {
						delete(p.Profiles, name)
						if p.Current == name {
							p.Current = ""
						}
						return nil
					})
				},
			},
		},
		Action: cmdutil.GroupAction(cli.ShowSubcommandHelp),
	}
}

func runProfilesList(c *cli.Context) error {
	store, err := cmdutil.NewCredentialsStore()
	if err != nil {
		return err
	}
	file, err := store.Load()
	if err != nil {
		return err
	}
	io := cmdutil.NewStreams(c)
	var list []profileJSON
	for _, name := range file.Names() {
		p := file.Profiles[name]
		list = append(list, profileJSON{Name: name, Current: name == file.Current, Server: p.Server,
			Email: p.Email, Credential: p.CredentialKind()})
	}
	return cmdutil.PrintList(io, c.Bool("json"), list, []string{"", "PROFILE", "SERVER", "USER", "CREDENTIAL"},
		func(p profileJSON) []string {
			mark := ""
			if p.Current {
				mark = "*"
			}
			return []string{mark, p.Name, p.Server, cmdutil.OrDash(p.Email), p.Credential}
		})
}

// updateProfiles applies fn to the profile named by the first argument,
// which must exist.
func updateProfiles(c *cli.Context, fn func(*cmdutil.CredentialsFile, string) error) error {
	store, err := cmdutil.NewCredentialsStore()
	if err != nil {
		return err
	}
	name := c.Args().First()
	return store.Update(func(p *cmdutil.CredentialsFile) error {
		if p.Profiles[name] == nil {
			return cmdutil.UsageErrorf(c, "no profile %q", name)
		}
		return fn(p, name)
	})
}
