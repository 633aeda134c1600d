// Package version holds `photoctl version`: the client's version and, when
// signed in, the server's. As every client command it is an Options
// struct, a NewCmdVersion(f, runF) that parses the command line into it,
// and a runVersion that does the work.
package version

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
)

// versionTimeout bounds the question to the server: `photoctl version`
// answers with the client's version even when the server does not.
const versionTimeout = 5 * time.Second

// JSON is the --json output of `photoctl version`; Server is null when it
// is not known.
type JSON struct {
	Client string  `json:"client"`
	Server *string `json:"server"`
}

// Options are what `photoctl version` was asked for.
type Options struct{ cmdutil.ClientOptions }

// NewCmdVersion returns `photoctl version`; runF, when not nil, gets the
// parsed options instead of runVersion (tests).
var NewCmdVersion = cmdutil.Constructor(cmdutil.Command[Options]{
	Name:  "version",
	Usage: "Print the client's version and, when signed in, the server's",
	Description: `Prints the version of this photoctl and, when signed in (a profile, or
--api-key/$PHOTOCTL_API_KEY with --server/$PHOTOCTL_SERVER), the version of
the server it talks to. When not signed in, or when the server does not
answer within 5 seconds, only the client's version is printed, with a note
on standard error why; the exit status is 0 all the same. With --json the
output is {"client": ..., "server": ...}, server null when unknown.
'photoctl --version' prints the client's version only, without asking the
server.

Example:
   photoctl version
   photoctl version --json | jq -r .server`,
	JSON: true,
	// Offline: serverVersion connects itself, as not being signed in (or
	// no answer) is a note, not a failure.
	Offline: runVersion,
})

func runVersion(ctx context.Context, opts *Options) error {
	io := opts.IO
	out := JSON{Client: cmdutil.Version}
	server, note := serverVersion(ctx, opts)
	if note != "" {
		fmt.Fprintf(io.Err, "Note: %s\n", note)
	} else {
		out.Server = &server
	}
	if opts.JSON {
		return cmdutil.PrintJSON(io.Out, out)
	}
	fmt.Fprintf(io.Out, "client: %s\n", out.Client)
	if out.Server != nil {
		fmt.Fprintf(io.Out, "server: %s\n", *out.Server)
	}
	return nil
}

// serverVersion asks the server of the credential in use for its version;
// when there is none or it does not answer, note says why.
func serverVersion(ctx context.Context, opts *Options) (v, note string) {
	conn, err := opts.Conn()
	switch {
	case errors.Is(err, cmdutil.ErrNoServer), errors.Is(err, client.ErrUnauthenticated):
		return "", "not signed in; showing the client's version only"
	case err != nil:
		return "", cmdutil.SanitizeLines(err.Error()) + "; showing the client's version only"
	}
	ctx, cancel := context.WithTimeout(ctx, versionTimeout)
	defer cancel()
	h, err := conn.Health(ctx)
	if err != nil {
		return "", fmt.Sprintf("server %s did not answer (%s); showing the client's version only",
			conn.Server(), cmdutil.SanitizeLines(err.Error()))
	}
	return cmdutil.Sanitize(h.Version), ""
}
