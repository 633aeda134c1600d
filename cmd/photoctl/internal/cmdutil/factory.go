// Package cmdutil holds what every client command of photoctl shares, so
// that a command's own package holds only its flags, its Options and its
// run: the Factory (streams, connection), output (tables, --json, done
// lines), usage and partial-failure errors (main's exitCode maps them),
// the configuration layers and the credentials file with its profiles,
// argument and listing helpers, library lookup, name completion values and
// progress bars. It imports no server package but server/api
// (server/archtest checks it): the client build has no server in it.
package cmdutil

import (
	"context"

	"github.com/urfave/cli/v2"
)

// Version is set at build time:
// go build -ldflags "-X github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil.Version=v1.2.3".
// It lives here, not in main, because the client commands send it as their
// user agent and `photoctl version` prints it.
var Version = "dev"

// Factory is what a client command reaches for beyond its flags: its
// streams and its connection to the server. Commands take them from here,
// never from globals, so a test can hand a command other streams or another
// connection; a command's runF test needs neither.
type Factory struct {
	// Streams returns the streams of the command being run; NewStreams in
	// production.
	Streams func(c *cli.Context) *Streams
	// Connect connects to the server the configuration names; with
	// needAuth, having no credential is an authentication error. Connect
	// in production.
	Connect func(c *cli.Context, needAuth bool) (*APIConn, error)
}

// NewFactory returns the production Factory.
func NewFactory() *Factory {
	return &Factory{Streams: NewStreams, Connect: Connect}
}

// ClientOptions are what every client command's Options embed: its
// streams, its connection, which is lazy (the command's run calls Conn
// once its arguments are checked, and a runF test never does), and
// whether --json asks for JSON.
type ClientOptions struct {
	IO   *Streams
	Conn func() (*APIConn, error)
	JSON bool
}

// ClientOptions returns the streams, the lazy connection and --json of
// c's command.
func (f *Factory) ClientOptions(c *cli.Context) ClientOptions {
	return ClientOptions{IO: f.Streams(c), Conn: func() (*APIConn, error) { return f.Connect(c, true) }, JSON: c.Bool("json")}
}

// Run hands the parsed options to runF when a test gave one, else runs the
// command with them: the last line of every command's Action.
func Run[O any](ctx context.Context, opts O, runF func(O) error, run func(context.Context, O) error) error {
	if runF != nil {
		return runF(opts)
	}
	return run(ctx, opts)
}
