//go:build !client

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/clientcmd/keys"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/catalog"
)

// adminPasswordEnv may hold the password for `admin create-user`. It is
// read by hand rather than through the flag's EnvVars so that --password
// on the command line can be told apart from the environment.
const adminPasswordEnv = "PHOTOCTL_ADMIN_PASSWORD"

// CreateUserOptions is what `photoctl admin create-user` needs once its
// flags are parsed.
type CreateUserOptions struct {
	Config     app.Config
	User       app.NewUser
	JSON       bool
	Out        io.Writer
	CreateUser func(ctx context.Context, cfg app.Config, u app.NewUser) (*catalog.User, error)
}

// createdUserJSON is the --json output of create-user, a contract separate
// from the domain type.
type createdUserJSON struct {
	ID          string `json:"id"`
	Email       string `json:"email"`
	IsSuperuser bool   `json:"is_superuser"`
}

// newAdminCommand returns `photoctl admin`, the group of commands that work
// on the library's store directly, with or without a running server.
func newAdminCommand(f *factory) *cli.Command {
	return &cli.Command{
		Name:  "admin",
		Usage: "Administer the library directly, without the server",
		Description: `Commands that open the store in the data directory directly. They work
whether or not the server is running.

Example:
   photoctl admin create-user --email you@example.com --password-stdin --superuser`,
		Subcommands: []*cli.Command{newCreateUserCommand(f), newMigrateCommand(), newBackupCommand(), newAdminRestoreCommand(),
			newCopyBlobsCommand(), keys.NewCmdOAuthClients(f.Factory), newRegeocodeCommand(), newRemeasureCommand()},
		Action: cmdutil.GroupAction(cli.ShowSubcommandHelp),
	}
}

// newCreateUserCommand returns `photoctl admin create-user`.
func newCreateUserCommand(f *factory) *cli.Command {
	return &cli.Command{
		Name:  "create-user",
		Usage: "Create a user and their first library",
		Description: `Creates a user with a library of their own and prints
"created user <id> (<email>)", or with --json {"id", "email", "is_superuser"}.
The password comes from --password, --password-stdin (the first line of
standard input) or the PHOTOCTL_ADMIN_PASSWORD environment variable.

Example:
   printf '%s\n' "$PASSWORD" | photoctl admin create-user \
       --email you@example.com --password-stdin --first-name Ada --superuser`,
		Flags: []cli.Flag{
			dataDirFlag(),
			&cli.StringFlag{Name: "email", Usage: "sign-in `EMAIL` of the new user (required)"},
			&cli.StringFlag{Name: "password", Usage: "`PASSWORD` of the new user (or $" + adminPasswordEnv + ")"},
			&cli.BoolFlag{Name: "password-stdin", Usage: "read the password from the first line of standard input"},
			&cli.StringFlag{Name: "first-name", Usage: "first `NAME`"},
			&cli.StringFlag{Name: "last-name", Usage: "last `NAME`"},
			&cli.BoolFlag{Name: "superuser", Usage: "let the user administer the server"},
			&cli.BoolFlag{Name: "json", Usage: "print the new user as JSON"},
		},
		Action: func(c *cli.Context) error {
			if err := cmdutil.NoArgs(c); err != nil {
				return err
			}
			email := strings.TrimSpace(c.String("email"))
			if email == "" {
				return cmdutil.UsageErrorf(c, "--email is required")
			}
			password, err := readPassword(c)
			if err != nil {
				return err
			}
			cfg, err := loadConfig(c)
			if err != nil {
				return err
			}
			return runCreateUser(c.Context, &CreateUserOptions{
				Config: cfg,
				User: app.NewUser{
					Email:     email,
					Password:  password,
					FirstName: c.String("first-name"),
					LastName:  c.String("last-name"),
					Superuser: c.Bool("superuser"),
				},
				JSON:       c.Bool("json"),
				Out:        c.App.Writer,
				CreateUser: f.createUser,
			})
		},
	}
}

// newMigrateCommand is in cmd_admin_migrate.go.

// runCreateUser creates the user and prints it.
func runCreateUser(ctx context.Context, opts *CreateUserOptions) error {
	u, err := opts.CreateUser(ctx, opts.Config, opts.User)
	if err != nil {
		return fmt.Errorf("create user %s: %w", opts.User.Email, err)
	}
	if opts.JSON {
		enc := json.NewEncoder(opts.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(createdUserJSON{ID: u.ID, Email: u.Email, IsSuperuser: u.IsSuperuser})
	}
	_, err = fmt.Fprintf(opts.Out, "created user %s (%s)\n", u.ID, u.Email)
	return err
}

// readPassword returns the password from --password-stdin, --password or
// the environment, in that order of precedence.
func readPassword(c *cli.Context) (string, error) {
	switch {
	case c.Bool("password-stdin") && c.IsSet("password"):
		return "", cmdutil.UsageErrorf(c, "--password and --password-stdin cannot be used together")
	case c.Bool("password-stdin"):
		return cmdutil.ReadPasswordLine(c)
	case c.String("password") != "":
		return c.String("password"), nil
	case os.Getenv(adminPasswordEnv) != "":
		return os.Getenv(adminPasswordEnv), nil
	default:
		return "", cmdutil.UsageErrorf(c, "a password is required: use --password, --password-stdin or $%s", adminPasswordEnv)
	}
}
