// Package auth holds the client commands about signing in: `photoctl
// login` (password, API key or the server's identity provider), `logout`,
// `whoami` and `profiles` (the saved servers and credentials). Each
// command is an Options struct, a NewCmdX(f, runF) that parses the command
// line into it, and a runX that does the work.
package auth

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// LoginOptions is what `photoctl login` needs once its flags are parsed
// and its secrets read (the terminal prompts come before the run).
type LoginOptions struct {
	cmdutil.ClientOptions

	Server, Profile, Email, Password, APIKey string
	Store                                    *cmdutil.CredentialsStore

	// OIDC signs in through the server's identity provider (oidc.go);
	// NoBrowser only prints the address to open.
	OIDC, NoBrowser bool
}

// LoginJSON is the --json output of login and whoami.
type LoginJSON struct {
	Profile    string    `json:"profile,omitempty"`
	Server     string    `json:"server"`
	Credential string    `json:"credential"`
	User       *api.User `json:"user"`
}

// NewCmdLogin returns `photoctl login`; runF, when not nil, gets the
// parsed options instead of runLogin (tests).
var NewCmdLogin = cmdutil.Constructor(cmdutil.Command[LoginOptions]{
	Name:  "login",
	Usage: "Sign in to a server and save the session in a profile",
	Description: `Signs in with e-mail and password and saves the session (or, with
--api-key, the key) as a profile in $XDG_CONFIG_HOME/photoctl/credentials.json
(mode 0600), which becomes the current profile. Sessions are refreshed
automatically. Keep one profile per server with --profile.

The password is read from --password-stdin (the first line of standard
input) or asked for on the terminal without echo.

Scripts need no profile: --server and --api-key (or $PHOTOCTL_SERVER and
$PHOTOCTL_API_KEY) are enough for every command.

Example:
   photoctl login --server http://127.0.0.1:2283 --email you@example.com
   printf '%s\n' "$PASSWORD" | photoctl login --server https://photos.example.com \
       --email you@example.com --password-stdin --profile home
   photoctl login --server https://photos.example.com --api-key "$KEY" --profile ci
   photoctl login --server https://photos.example.com --oidc

With --oidc the sign-in goes through the server's identity provider: photoctl
opens the browser (or, with --no-browser or without a display, prints the
address to open) and receives the answer on a loopback port.`,
	Flags: []cli.Flag{
		&cli.StringFlag{Name: "email", Usage: "sign-in `EMAIL` (asked for on a terminal when missing)"},
		&cli.BoolFlag{Name: "password-stdin", Usage: "read the password from the first line of standard input"},
		&cli.BoolFlag{Name: "oidc", Usage: "sign in through the server's identity provider in a browser"},
		&cli.BoolFlag{Name: "no-browser", Usage: "with --oidc, print the sign-in address instead of opening a browser"},
	},
	JSON:    true,
	Parse:   parseLogin,
	Offline: runLogin,
})

// parseLogin reads the server, profile and credential (flags, environment,
// config file, then the credentials file) and the secrets still missing.
func parseLogin(c *cli.Context, _ []string, opts *LoginOptions) error {
	cfg, err := cmdutil.LoadClientConfig(c)
	if err != nil {
		return err
	}
	if opts.Store, err = cmdutil.NewCredentialsStore(); err != nil {
		return err
	}
	opts.Server, opts.Profile, opts.APIKey, opts.Email = cfg.Server, cfg.Profile, string(cfg.APIKey), c.String("email")
	opts.OIDC, opts.NoBrowser = c.Bool("oidc"), c.Bool("no-browser")
	if opts.OIDC && (opts.APIKey != "" || opts.Email != "") {
		return cmdutil.UsageErrorf(c, "--oidc signs in through the identity provider; leave out --email and --api-key")
	}
	if err := resolveLoginTarget(opts); err != nil {
		return &cmdutil.UsageError{Err: err, Help: c.Command.HelpName}
	}
	if opts.APIKey == "" && !opts.OIDC {
		return readLoginSecrets(c, opts)
	}
	return nil
}

// resolveLoginTarget fills the profile and server from the credentials
// file when the flags leave them out.
func resolveLoginTarget(opts *LoginOptions) error {
	file, err := opts.Store.Load()
	if err != nil {
		return err
	}
	if opts.Profile == "" {
		opts.Profile = file.Current
	}
	if opts.Profile == "" {
		opts.Profile = cmdutil.DefaultProfile
	}
	if opts.Server == "" {
		if p := file.Profiles[opts.Profile]; p != nil {
			opts.Server = p.Server
		}
	}
	if opts.Server == "" {
		return cmdutil.ErrNoServer
	}
	s, err := client.NormalizeServer(opts.Server)
	opts.Server = s
	return err
}

// readLoginSecrets gets the e-mail and password from the flags, standard
// input or the terminal.
func readLoginSecrets(c *cli.Context, opts *LoginOptions) error {
	in := bufio.NewReader(opts.IO.In)
	tty := cmdutil.IsTerminal(opts.IO.In)
	if opts.Email == "" {
		if !tty {
			return cmdutil.UsageErrorf(c, "--email is required when standard input is not a terminal")
		}
		fmt.Fprint(opts.IO.Err, "E-mail: ")
		line, err := in.ReadString('\n')
		if err != nil && line == "" {
			return fmt.Errorf("read e-mail: %w", err)
		}
		opts.Email = strings.TrimSpace(line)
	}
	switch {
	case c.Bool("password-stdin"):
		line, err := in.ReadString('\n')
		if err != nil && err != io.EOF {
			return fmt.Errorf("read password from stdin: %w", err)
		}
		opts.Password = strings.TrimRight(line, "\r\n")
	case tty:
		fmt.Fprint(opts.IO.Err, "Password: ")
		f := opts.IO.In.(interface{ Fd() uintptr })
		b, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(opts.IO.Err)
		if err != nil {
			return fmt.Errorf("read password: %w", err)
		}
		opts.Password = string(b)
	default:
		return cmdutil.UsageErrorf(c, "give the password with --password-stdin when standard input is not a terminal")
	}
	if opts.Email == "" || opts.Password == "" {
		return cmdutil.UsageErrorf(c, "an e-mail and a password are required")
	}
	return nil
}

// runLogin signs in (or checks the API key) and saves the profile.
func runLogin(ctx context.Context, opts *LoginOptions) error {
	anon, err := client.New(client.Options{Server: opts.Server, UserAgent: "photoctl/" + cmdutil.Version})
	if err != nil {
		return err
	}
	prof := &cmdutil.Profile{Server: opts.Server}
	var user *api.User
	if opts.APIKey != "" {
		kc, err := client.New(client.Options{Server: opts.Server, APIKey: opts.APIKey, UserAgent: "photoctl/" + cmdutil.Version})
		if err != nil {
			return err
		}
		if user, err = kc.Me(ctx); err != nil {
			return fmt.Errorf("check the API key (it needs the user.read action): %w", err)
		}
		prof.APIKey = opts.APIKey
	} else if opts.OIDC {
		tokens, u, err := loginOIDC(ctx, anon, opts)
		if err != nil {
			return err
		}
		user, prof.Session = u, &tokens
	} else {
		tokens, u, err := anon.Login(ctx, opts.Email, opts.Password)
		if err != nil {
			return fmt.Errorf("sign in to %s: %w", opts.Server, err)
		}
		user, prof.Session = u, &tokens
	}
	if user != nil {
		prof.Email, prof.UserID = user.Email, user.ID
	}
	err = opts.Store.Update(func(p *cmdutil.CredentialsFile) error {
		p.Profiles[opts.Profile] = prof
		p.Current = opts.Profile
		return nil
	})
	if err != nil {
		return err
	}
	if opts.JSON {
		return cmdutil.PrintJSON(opts.IO.Out, LoginJSON{Profile: opts.Profile, Server: opts.Server, Credential: prof.CredentialKind(), User: user})
	}
	_, err = fmt.Fprintf(opts.IO.Out, "Signed in to %s as %s (profile %q).\n", opts.Server, prof.Email, opts.Profile)
	return err
}
