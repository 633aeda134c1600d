package main

import (
	"bytes"
	"context"
	"errors"
	"net"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/servertest"
)

// Every example of every command's help and of the README runs through the
// real binary against a real server, with its placeholders filled in with
// real records. The test fails when photoctl does not understand the
// line: an unknown flag, a wrong number of arguments, an unknown command.
// That the command then fails (a 404 for an id an earlier example deleted,
// a password prompt without a terminal) is logged, not a failure: the
// example is written right.
func TestHelpAndReadmeExamplesParse(t *testing.T) {
	t.Parallel()
	servertest.SkipStoreNeutralOnPostgres(t, "how the CLI parses its examples")
	photoctlBinary(t) // build first: the times logged are for the examples
	start := time.Now()
	w := newExampleWorld(t)
	t.Logf("records made in %s", time.Since(start))
	fromHelp := helpExamples(newApp(stubFactory(t)))
	fromReadme := readmeExamples(t)
	require.NotEmpty(t, fromHelp)
	require.NotEmpty(t, fromReadme)

	var runs []exampleRun
	seen := map[string]bool{}
	for _, ex := range append(fromHelp, fromReadme...) {
		if seen[ex.line] { // upload and import share their help
			continue
		}
		seen[ex.line] = true
		cmds := photoctlCommands(ex.line, w.expand)
		require.NotEmpty(t, cmds, "%s: no photoctl command in %q", ex.source, ex.line)
		for _, c := range cmds {
			runs = append(runs, exampleRun{example: ex, cmd: c})
		}
	}
	// What deletes or takes away runs after the others, one at a time, so
	// that they find the records they name; signing out (which ends the
	// session every run's copy of the configuration holds) comes last.
	safe := slices.DeleteFunc(slices.Clone(runs), func(r exampleRun) bool { return destructive(r.cmd.args) > 0 })
	last := slices.DeleteFunc(runs, func(r exampleRun) bool { return destructive(r.cmd.args) == 0 })
	slices.SortStableFunc(last, func(a, b exampleRun) int { return destructive(a.cmd.args) - destructive(b.cmd.args) })

	check := func(r exampleRun) {
		res := w.runExample(t, r.cmd)
		switch {
		case res.err != nil:
			t.Errorf("%s: run %q: %v", r.example.source, r.example.line, res.err)
		case isParseFailure(res):
			t.Errorf("%s: photoctl does not understand the example\n  %s\n  ran: photoctl %s\n  exit %d\n%s%s",
				r.example.source, r.example.line, strings.Join(res.args, " "), res.code, res.stdout, res.stderr)
		case res.timedOut:
			t.Logf("%s: %q still running after %s (long-running; parsed fine)", r.example.source, r.example.line, res.timeout)
		case res.code != exitOK:
			t.Logf("%s: %q exit %d: %s", r.example.source, r.example.line, res.code, firstLine(res.stderr))
		}
	}
	start = time.Now()
	var wg sync.WaitGroup
	jobs := make(chan exampleRun)
	for range 8 {
		wg.Go(func() {
			for r := range jobs {
				check(r)
			}
		})
	}
	for _, r := range safe {
		jobs <- r
	}
	close(jobs)
	wg.Wait()
	parallel := time.Since(start)
	for _, r := range last {
		check(r)
	}
	t.Logf("ran in %s: %s side by side, then %d one at a time", time.Since(start), parallel, len(last))
	t.Logf("%d examples in the help (%d unique lines with README), %d in README.md; %d commands run",
		len(fromHelp), len(seen), len(fromReadme), len(safe)+len(last))
}

// exampleRun is one photoctl command of an example line.
type exampleRun struct {
	example example
	cmd     shellCommand
}

// exampleResult is what an example's command did.
type exampleResult struct {
	args           []string
	stdout, stderr string
	code           int
	timedOut       bool
	timeout        time.Duration
	err            error // it could not be run
}

// runExample runs one command of an example, filled in, in a copy of the
// signed-in configuration, with the world's home and working directory.
//
// Nothing may hang: standard input is closed (or holds the ids or the
// password the line pipes in), and the commands that run until stopped
// (serve, worker, events tail --follow, tasks watch with ingest tasks
// nobody works off, dev seed of a million assets, mcp, login --oidc
// waiting for a browser, a database on host "db") get two seconds. Having
// run that long, they parsed their line: urfave reads it first. None is
// checked with --help instead: all of them really run.
func (w *exampleWorld) runExample(t *testing.T, c shellCommand) exampleResult {
	t.Helper()
	args := w.fill(c.args, freeListenAddr())
	timeout := 20 * time.Second
	if longRunning(args) {
		timeout = 2 * time.Second
	}
	stdin := ""
	switch {
	case c.piped:
		stdin = w.assets[3] + "\n" + w.assets[4] + "\n" // what `ls ... | jq -r '.[].id'` would send
	case slices.Contains(args, "--password-stdin"):
		stdin = examplePassword + "\n"
	}
	config := t.TempDir()
	res := exampleResult{args: args, timeout: timeout}
	if res.err = os.CopyFS(config, os.DirFS(w.config)); res.err != nil {
		return res
	}
	env := append(slices.Clone(w.cs.env), "HOME="+w.home, "XDG_CONFIG_HOME="+config)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, w.bin, args...)
	cmd.Env, cmd.Dir, cmd.Stdin = env, w.work, strings.NewReader(stdin)
	cmd.WaitDelay = 2 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	res.stdout, res.stderr = stdout.String(), stderr.String()
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		res.timedOut, res.code = true, -1
	case errors.As(err, &exit):
		res.code = exit.ExitCode()
	default:
		res.err = err
	}
	return res
}

// longRunning says whether the command runs until stopped (or for long).
func longRunning(args []string) bool {
	line := " " + strings.Join(args, " ") + " "
	for _, s := range []string{" serve ", " worker ", " mcp ", " tasks watch ", " dev seed ", " --oidc ", "@db/"} {
		if strings.Contains(line, s) {
			return true
		}
	}
	return strings.Contains(line, " events tail ") && (strings.Contains(line, " --follow ") || strings.Contains(line, " -f "))
}

// destructive says whether the command deletes, disables or moves what
// other examples name (1), or ends the signed-in session (2), or neither (0).
func destructive(args []string) int {
	line := " " + strings.Join(args, " ") + " "
	for _, s := range []string{" logout ", " profiles remove "} {
		if strings.Contains(line, s) {
			return 2
		}
	}
	for _, s := range []string{" rm ", " trash ", " delete ", " merge ", " hide ", " remove ", " revoke ", " disable ",
		" leave ", " reset-password ", " stacks edit ", " people rename ", " albums edit ", " libraries restore "} {
		if strings.Contains(line, s) {
			return 1
		}
	}
	return 0
}

// parseFailures are what photoctl says when it does not understand a line.
var parseFailures = []string{
	"flag provided but not defined", "Incorrect Usage", "put flags before", "flag needs an argument",
	"invalid value", "No help topic", "for usage.", // every cmdutil.UsageErrorf ends with "Run '... --help' for usage."
}

// notParseFailures are usage errors about the surroundings of a run, not
// its line: no terminal for a prompt, an empty standard input.
var notParseFailures = []string{
	"needs a terminal", "standard input is not a terminal", "no signed-in profile",
	"nothing on standard input", "standard input is empty",
}

func isParseFailure(r exampleResult) bool {
	out := r.stdout + r.stderr
	hit := func(list []string) bool {
		return slices.ContainsFunc(list, func(s string) bool { return strings.Contains(out, s) })
	}
	return hit(parseFailures) && !hit(notParseFailures)
}

// freeListenAddr is a 127.0.0.1 address for the example servers, with a
// port that was free a moment ago ("" when none could be had: serve then
// fails on its own).
func freeListenAddr() string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return ""
	}
	defer ln.Close()
	return ln.Addr().String()
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}
