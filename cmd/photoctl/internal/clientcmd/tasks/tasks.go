// Package tasks holds the client commands that follow the server's
// background work: `photoctl tasks` (list, get, watch the queue drain) and
// `photoctl events` (a library's change feed). Each command is an Options
// struct, a NewCmdX(f, runF) that parses the command line into it, and a
// runX that does the work.
package tasks

import (
	"context"
	"strconv"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// NewCmdTasks returns `photoctl tasks`, a group: its subcommands are
// tested one by one, each with its own runF.
func NewCmdTasks(f *cmdutil.Factory) *cli.Command {
	return &cli.Command{
		Name:  "tasks",
		Usage: "List background tasks and watch the queue drain",
		Description: `Uploads queue background tasks (metadata, variants, geocode, faces, ...):
each step queues the next when it succeeds. A task is queued, running,
succeeded or failed; a failed attempt is queued again with a backoff until
its attempts are spent.

Example:
   photoctl tasks list --state failed
   photoctl upload ~/Pictures && photoctl tasks watch`,
		Subcommands: []*cli.Command{NewCmdList(f, nil), NewCmdGet(f, nil), NewCmdWatch(f, nil)},
		Action:      cmdutil.GroupAction(cli.ShowSubcommandHelp),
	}
}

// ListOptions are what `photoctl tasks list` was asked for.
type ListOptions struct {
	cmdutil.ClientOptions

	// Library is an id or a name, looked up once connected; with an
	// Asset and no --library (LibrarySet false) the asset names it.
	Library    string
	LibrarySet bool
	Query      client.TaskQuery
	Limit      int // 0: all
}

// NewCmdList returns `photoctl tasks list`; runF, when not nil, gets the
// parsed options instead of runList (tests).
var NewCmdList = cmdutil.Constructor(cmdutil.Command[ListOptions]{
	Name:  "list",
	Usage: "List tasks, newest first, with filters",
	Description: `Lists tasks, by default the 50 newest: those of the library named by --library
(or $PHOTOCTL_LIBRARY, or the default of 'photoctl libraries switch'), else
of every library you can read. --asset alone names its asset's library. With
--json the output is a JSON array of the API's Task records.

Example:
   photoctl tasks list --state failed --all
   photoctl tasks list --asset asset_01hx... --json | jq -r '.[] | "\(.kind) \(.state)"'`,
	Flags: append([]cli.Flag{
		cmdutil.LibraryFlag(),
		&cli.StringFlag{Name: "state", Usage: "only tasks in `STATE`: queued, running, succeeded or failed"},
		&cli.StringFlag{Name: "kind", Usage: "only tasks of `KIND` (metadata, variants, ...)"},
		&cli.StringFlag{Name: "asset", Usage: "only the tasks of asset `ID`"},
	}, cmdutil.LimitFlags("tasks")...),
	JSON: true,
	Parse: func(c *cli.Context, _ []string, opts *ListOptions) (err error) {
		if opts.Limit, err = cmdutil.ListLimit(c); err != nil {
			return err
		}
		opts.Library, opts.LibrarySet = c.String("library"), c.IsSet("library")
		opts.Query = client.TaskQuery{State: c.String("state"), Kind: c.String("kind"), AssetID: c.String("asset")}
		return nil
	},
	Run: runList,
})

func runList(ctx context.Context, conn *cmdutil.APIConn, opts *ListOptions) error {
	q := opts.Query
	var err error
	if q.AssetID == "" || opts.LibrarySet {
		if q.LibraryID, err = cmdutil.ResolveLibrary(ctx, conn, opts.Library); err != nil {
			return err
		}
	}
	tasks, more, err := cmdutil.Take(conn.Tasks(ctx, q, cmdutil.PageSizeFor(opts.Limit)), opts.Limit)
	if err != nil {
		return err
	}
	if err := cmdutil.PrintList(opts.IO, opts.JSON, tasks,
		[]string{"ID", "KIND", "STATE", "ASSET", "ATTEMPTS", "CREATED", "ERROR"}, taskRow); err != nil {
		return err
	}
	return cmdutil.PrintMoreHint(opts.IO, opts.JSON, more, len(tasks), "tasks")
}

// taskRow is a task in the list table.
func taskRow(t api.Task) []string {
	return []string{t.ID, t.Kind, t.State, cmdutil.OrDash(cmdutil.Deref(t.AssetID)), strconv.Itoa(t.Attempts),
		t.CreatedAt.Local().Format("2006-01-02 15:04:05"), cmdutil.OrDash(cmdutil.Deref(t.Error))}
}

// GetOptions are what `photoctl tasks get` was asked for: the ids of the
// tasks to show.
type GetOptions struct{ cmdutil.EachOptions }

// NewCmdGet returns `photoctl tasks get`; runF, when not nil, gets the
// parsed options instead of runGet (tests).
var NewCmdGet = cmdutil.Constructor(cmdutil.Command[GetOptions]{
	Name:      "get",
	Usage:     "Show tasks in full",
	ArgsUsage: "TASK...",
	Description: `Prints each task's fields, or with --json the API's Task record (one object
for one task, an array for several).

Example:
   photoctl tasks get task_01hx... --json | jq .error`,
	JSON: true,
	Args: cmdutil.AtLeastOne("give at least one task id"),
	Run:  runGet,
})

func runGet(ctx context.Context, conn *cmdutil.APIConn, opts *GetOptions) error {
	return cmdutil.ShowEach(opts.EachOptions, cmdutil.Fetch(ctx, conn.Task), func(t *api.Task) [][]string {
		rows := [][]string{{"id", t.ID}, {"kind", t.Kind}, {"state", t.State}, {"asset", cmdutil.OrDash(cmdutil.Deref(t.AssetID))},
			{"library", t.LibraryID}, {"attempts", strconv.Itoa(t.Attempts)}, {"error", cmdutil.OrDash(cmdutil.Deref(t.Error))},
			{"created", t.CreatedAt.Local().Format(time.DateTime)}}
		if t.FinishedAt != nil {
			rows = append(rows, []string{"finished", t.FinishedAt.Local().Format(time.DateTime)})
		}
		return rows
	})
}
