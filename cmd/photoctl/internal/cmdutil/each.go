package cmdutil

import "github.com/urfave/cli/v2"

// EachOptions are the options of a command that acts on every id it is
// given, in order (`keys delete ID...`, `admin oauth-clients revoke
// ID...`). Commands embed it in their own Options type.
type EachOptions struct {
	ClientOptions

	IDs []string
}

// ParseEach reads such a command line: at least one argument (msg says
// what is wanted, as a usage error), and --json.
func ParseEach(f *Factory, c *cli.Context, msg string) (EachOptions, error) {
	ids, err := NeedArgs(c, 1, -1, msg)
	if err != nil {
		return EachOptions{}, err
	}
	return EachOptions{ClientOptions: f.ClientOptions(c), IDs: ids}, nil
}

// Act connects and runs fn for every id (ActOnEach: fn returns the id it
// acted on, done and key and noun word the report).
func (o *EachOptions) Act(done, key, noun string, fn func(conn *APIConn, arg string) (string, error)) error {
	conn, err := o.Conn()
	if err != nil {
		return err
	}
	return ActOnEach(o.IO, o.JSON, o.IDs, done, key, noun, func(arg string) (string, error) { return fn(conn, arg) })
}

// ForEach runs fn for every id (ActOnEach: fn returns the id it acted on;
// done, key and noun word the report).
func (o *EachOptions) ForEach(done, key, noun string, fn func(id string) (string, error)) error {
	return ActOnEach(o.IO, o.JSON, o.IDs, done, key, noun, fn)
}
