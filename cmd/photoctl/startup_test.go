package main

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/servertest"
)

// These tests run photoctl on a pseudo-terminal that answers nothing
// (script -qc, as under expect, ssh -tt and some CI runners). A program
// that asks the terminal something there (its background colour, the
// cursor position) waits for an answer that never comes: bubbletea v1 did
// so in a package init, which cost every command 5 s.

// startCommands are commands that need no server, or fail at once
// without one (no server configured), so that only start-up is timed.
var startCommands = [][]string{
	{"--version"},
	{"version"}, // fails fast where there is no such command
	{"help"},
	{"ls", "--help"},
	{"ls"},
	{"whoami"},
	{"tui"},
}

// serverStartCommands are handed to photoctl-server, which loads libvips
// and its hundred shared libraries: the benchmark reports them apart.
var serverStartCommands = [][]string{
	{"serve", "--help"},
	{"admin", "--help"},
}

// startLimit bounds one run in the tests: far above the 100 ms target
// (BenchmarkStartUnderAPty checks that), far below a 5 s wait.
const startLimit = 2 * time.Second

// terminalQuery matches what a program writes to ask the terminal
// something: OSC 10/11/12/4 colour queries, device status and attribute
// requests (CSI … n, CSI … c), mode reports (CSI ? … $p), the kitty
// keyboard query (CSI ? u).
var terminalQuery = regexp.MustCompile(`\x1b\](?:1[0-2]|4);[^\x07\x1b]*\?|\x1b\[[0-9;?>=]*[nc]|\x1b\[\?[0-9;]*\$p|\x1b\[\?u`)

// needScript skips the test without util-linux script.
func needScript(t testing.TB) string {
	t.Helper()
	path, err := exec.LookPath("script")
	if err != nil {
		t.Skip("script (util-linux) is not installed: the pty start-up tests need it")
	}
	return path
}

// runUnderPty runs command under `script -qc` with env and returns what
// reached the terminal and how long it took.
func runUnderPty(t testing.TB, script string, env []string, command string) (string, time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, script, "-qec", command, "/dev/null")
	cmd.Env = env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start)
	var exit *exec.ExitError
	if !errors.As(err, &exit) { // a failing command is fine: only its start counts
		require.NoError(t, err, "script -qc %s", command)
	}
	return out.String(), took
}

// shellQuote quotes args for the shell script runs.
func shellQuote(args ...string) string {
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(quoted, " ")
}

// startEnv is an environment without any server or profile, on a colour
// terminal: nothing tells photoctl not to look at the terminal.
func startEnv(t testing.TB) []string {
	t.Helper()
	var env []string
	for _, kv := range binaryEnv(t) {
		if !strings.HasPrefix(kv, "NO_COLOR=") && !strings.HasPrefix(kv, "TERM=") {
			env = append(env, kv)
		}
	}
	return append(env, "TERM=xterm-256color")
}

func TestStartUnderAPtyThatAnswersNothing(t *testing.T) {
	servertest.SkipOnPostgres(t, "no store: start-up is the same whatever the server's")
	script := needScript(t)
	bin := photoctlBinary(t)
	env := startEnv(t)
	for _, args := range append(slices.Clone(startCommands), serverStartCommands...) {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			out, took := runUnderPty(t, script, env, shellQuote(append([]string{bin}, args...)...))
			require.Less(t, took, startLimit, "photoctl %v took %v on a pty that answers nothing:\n%q", args, took, out)
			require.NotContains(t, out, "\x1b]11;?", "asks for the background colour")
			require.NotContains(t, out, "\x1b[6n", "asks for the cursor position")
			require.NotRegexp(t, terminalQuery, out, "asks the terminal something")
			require.NotEmpty(t, strings.TrimSpace(out), "the command's own output")
		})
	}
}

// BenchmarkStartUnderAPty reports how long each command takes to run on
// a pty that answers nothing: ms/run is the whole run under script,
// ms/start that less script's own cost (script -qc true), which must stay
// under 100 ms for the client commands. The server commands' figure
// (photoctl, then photoctl-server in its place) is reported beside them:
// the dynamic loader binding libvips' libraries is most of it.
//
//	go test ./cmd/photoctl -run '^$' -bench StartUnderAPty -benchtime 10x
func BenchmarkStartUnderAPty(b *testing.B) {
	script := needScript(b)
	bin := photoctlBinary(b)
	env := startEnv(b)
	base := medianRun(b, script, env, "true", 5)
	b.Logf("script -qc true: %v", base)
	for _, args := range append(slices.Clone(startCommands), serverStartCommands...) {
		server := slices.ContainsFunc(serverStartCommands, func(s []string) bool { return slices.Equal(s, args) })
		b.Run(strings.Join(args, "_"), func(b *testing.B) {
			var total time.Duration
			for b.Loop() {
				_, took := runUnderPty(b, script, env, shellQuote(append([]string{bin}, args...)...))
				total += took
			}
			run := total / time.Duration(max(b.N, 1))
			start := max(run-base, 0)
			b.ReportMetric(float64(run.Microseconds())/1000, "ms/run")
			b.ReportMetric(float64(start.Microseconds())/1000, "ms/start")
			b.Logf("photoctl %s: %v a run, %v to start", strings.Join(args, " "), run, start)
			if start > 100*time.Millisecond && !server {
				b.Errorf("photoctl %s takes %v to start on a pty that answers nothing; the target is 100 ms",
					strings.Join(args, " "), start)
			}
		})
	}
}

// medianRun is the median time of n runs of command under script.
func medianRun(b *testing.B, script string, env []string, command string, n int) time.Duration {
	b.Helper()
	times := make([]time.Duration, n)
	for i := range times {
		_, times[i] = runUnderPty(b, script, env, command)
	}
	slices.Sort(times)
	return times[n/2]
}
