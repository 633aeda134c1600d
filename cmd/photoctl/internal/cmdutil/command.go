package cmdutil

import (
	"context"

	"github.com/urfave/cli/v2"
)

// Command declares a client command: the help `photoctl help` shows, its
// flags, the arguments it takes, how its Options are read from the command
// line and the run that does its work. New builds the cli.Command of it, so
// that every command checks its arguments, fills its Options, hands them to
// a test's runF and connects in one way, written once here.
//
// A command's package declares it beside its Options and its run, as the
// constructor main and the command's runF test call:
//
//	// NewCmdList returns `photoctl keys list`; runF, when not nil, gets
//	// the parsed options instead of runList (tests).
//	var NewCmdList = cmdutil.Constructor(cmdutil.Command[ListOptions]{
//		Name: "list", ..., Run: runList,
//	})
//
// A declaration that several commands share (aliases, one run for several
// verbs) is a variable that a NewCmdX function copies and hands to New.
type Command[O any] struct {
	Name, Usage, ArgsUsage, Description string
	// Hidden leaves it out of the help's list (an alias kept for old
	// scripts).
	Hidden bool
	// Flags come after the client flags (ClientFlags), in this order;
	// JSON adds --json after them. Every command New builds from this
	// value shares these flag values, and urfave writes into a flag as
	// it parses (its default, and what EnvVars or Destination find). So
	// they carry no EnvVars and no Destination, which would carry one
	// run's values into the next (the configuration layers read the
	// environment instead), and two commands built from one value are
	// never parsed at once: a process runs one command, and the
	// in-process tests run them one after another.
	Flags []cli.Flag
	JSON  bool

	// Args is how many positional arguments it takes: none unless set.
	Args Arity

	// Parse reads what the command line holds beyond the streams, the
	// connection, --json, the ids of Options that embed EachOptions and
	// the --library of those that embed InLibrary.
	// Its errors are usage errors, met before any connection. Nil: nothing
	// more to read.
	Parse func(c *cli.Context, args []string, opts *O) error

	// Run does the work with the connection, opened once the command line
	// is read. Offline, when set instead, runs without one (signing in,
	// profiles, the local files), and connects itself if it must.
	Run     func(ctx context.Context, conn *APIConn, opts *O) error
	Offline func(ctx context.Context, opts *O) error
	// NoAuth lets the connection be made with no credential (logout,
	// which signs out whatever the profile holds).
	NoAuth bool
	// Local commands work on this machine's files alone (the profiles):
	// they take no client flags, and their run is Offline.
	Local bool
}

// Arity is how many positional arguments a command takes and what its
// usage error says when the count is off. The zero Arity takes none.
type Arity struct {
	least, most int
	want        string
}

// ExactlyOne takes one argument; want says which ("want exactly one
// argument, the album name").
func ExactlyOne(want string) Arity { return Arity{1, 1, want} }

// AtLeastOne takes one argument or more ("give at least one key id").
func AtLeastOne(want string) Arity { return Arity{1, -1, want} }

// Between takes from least to most arguments (most < 0: no bound).
func Between(least, most int, want string) Arity { return Arity{least, most, want} }

// InLibrary is what the Options of a command that works in one library
// from the start of its run embed, with LibraryFlag among its flags: New
// reads --library into Library and, once connected, resolves it
// (ResolveLibrary) into LibraryID before the run.
type InLibrary struct {
	// Library is --library as given: an id, a name, or "" for the default.
	Library string
	// LibraryID is the library it names ("": none is chosen, and the
	// server's rule decides).
	LibraryID string
}

func (l *InLibrary) inLibrary() *InLibrary { return l }

// inLibrary is what Options that embed InLibrary are.
type inLibrary interface{ inLibrary() *InLibrary }

// clientOptions is what a command's Options are through ClientOptions,
// which they embed: New fills the streams, the connection and --json
// through it.
type clientOptions[O any] interface {
	*O
	client() *ClientOptions
}

func (o *ClientOptions) client() *ClientOptions { return o }

// takesIDs is what Options that embed EachOptions are: New stores the
// arguments as the ids.
type takesIDs interface{ setIDs(ids []string) }

func (o *EachOptions) setIDs(ids []string) { o.IDs = ids }

// Constructor returns the NewCmdX of the command cmd declares: it builds
// the command (New) for main's command tree, with runF nil, and for a
// test, whose runF gets the parsed options instead of cmd's run.
func Constructor[O any, P clientOptions[O]](cmd Command[O]) func(f *Factory, runF func(*O) error) *cli.Command {
	return func(f *Factory, runF func(*O) error) *cli.Command { return New[O, P](f, cmd, runF) }
}

// New returns the cli.Command that cmd declares; runF, when not nil, gets
// the parsed options instead of cmd's run (tests).
func New[O any, P clientOptions[O]](f *Factory, cmd Command[O], runF func(*O) error) *cli.Command {
	var flags []cli.Flag
	if !cmd.Local {
		flags = ClientFlags()
	}
	flags = append(flags, cmd.Flags...)
	if cmd.JSON {
		flags = append(flags, JSONFlag())
	}
	return &cli.Command{
		Name:        cmd.Name,
		Usage:       cmd.Usage,
		ArgsUsage:   cmd.ArgsUsage,
		Description: cmd.Description,
		Hidden:      cmd.Hidden,
		Flags:       flags,
		Action: func(c *cli.Context) error {
			opts, err := parse[O, P](f, cmd, c)
			if err != nil {
				return err
			}
			switch {
			case runF != nil:
				return runF(opts)
			case cmd.Offline != nil:
				return cmd.Offline(c.Context, opts)
			}
			conn, err := P(opts).client().Conn()
			if err != nil {
				return err
			}
			if l, ok := any(opts).(inLibrary); ok {
				if l.inLibrary().LibraryID, err = ResolveLibrary(c.Context, conn, l.inLibrary().Library); err != nil {
					return err
				}
			}
			return cmd.Run(c.Context, conn, opts)
		},
	}
}

// parse reads c's command line into a new O: the arguments' count, the
// client options, then the ids or cmd.Parse.
func parse[O any, P clientOptions[O]](f *Factory, cmd Command[O], c *cli.Context) (*O, error) {
	args, err := Args(c, cmd.Args.least, cmd.Args.most, cmd.Args.want)
	if err != nil {
		return nil, err
	}
	opts := new(O)
	*P(opts).client() = f.ClientOptions(c)
	if cmd.NoAuth {
		P(opts).client().Conn = func() (*APIConn, error) { return f.Connect(c, false) }
	}
	if each, ok := any(opts).(takesIDs); ok {
		each.setIDs(args)
	}
	if l, ok := any(opts).(inLibrary); ok {
		l.inLibrary().Library = c.String("library")
	}
	if cmd.Parse != nil {
		if err := cmd.Parse(c, args, opts); err != nil {
			return nil, err
		}
	}
	return opts, nil
}
