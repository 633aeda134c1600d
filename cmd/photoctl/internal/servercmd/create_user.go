//go:build !client

package servercmd

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/catalog"
)

// AdminPasswordEnv may hold the password for `admin create-user`. It is
// read by hand rather than through the flag's EnvVars so that --password
// on the command line can be told apart from the environment.
const AdminPasswordEnv = "PHOTOCTL_ADMIN_PASSWORD"

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

// NewCmdCreateUser returns `photoctl admin create-user`.
func NewCmdCreateUser(f *Factory, runF func(*CreateUserOptions) error) *cli.Command {
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
			&cli.StringFlag{Name: "password", Usage: "`PASSWORD` of the new user (or $" + AdminPasswordEnv + ")"},
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
			opts := &CreateUserOptions{
				Config: cfg,
				User: app.NewUser{
					Email:     email,
					Password:  password,
					FirstName: c.String("first-name"),
					LastName:  c.String("last-name"),
					Superuser: c.Bool("superuser"),
				},
				JSON:       c.Bool("json"),
				Out:        f.Streams(c).Out,
				CreateUser: f.CreateUser,
			}
			return cmdutil.Run(c.Context, opts, runF, runCreateUser)
		},
	}
}

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
	case os.Getenv(AdminPasswordEnv) != "":
		return os.Getenv(AdminPasswordEnv), nil
	default:
		return "", cmdutil.UsageErrorf(c, "a password is required: use --password, --password-stdin or $%s", AdminPasswordEnv)
	}
}
