package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

// tmuxTerm is a detached tmux session, on its own server socket, running
// one command in an 80×24 window.
type tmuxTerm struct {
	t      *testing.T
	socket string
	conf   string // the server's configuration file
}

// needTmux skips the test when tmux is missing, except in CI (CI=true),
// where a missing tmux is a failure.
func needTmux(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("tmux is not installed, and CI must run the TUI end to end (apt-get install tmux)")
		}
		t.Skip("tmux is not installed: the TUI end-to-end test needs it (apt-get install tmux)")
	}
}

func startTmux(t *testing.T, env []string, args ...string) *tmuxTerm {
	t.Helper()
	return startTmuxConf(t, "", env, args...)
}

// startTmuxConf is startTmux with a tmux configuration (a line such as
// "set -g window-style bg=white"; "" is none).
func startTmuxConf(t *testing.T, conf string, env []string, args ...string) *tmuxTerm {
	t.Helper()
	dir := t.TempDir()
	tm := &tmuxTerm{t: t, socket: filepath.Join(dir, "tmux.sock"), conf: filepath.Join(dir, "tmux.conf")}
	require.NoError(t, os.WriteFile(tm.conf, []byte(conf+"\n"), 0o600))
	command := []string{"env", "-i"}
	command = append(command, env...)
	command = append(command, args...)
	quoted := make([]string, len(command))
	for i, a := range command {
		quoted[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	tm.tmux("new-session", "-d", "-s", "tui", "-x", "80", "-y", "24", strings.Join(quoted, " "))
	t.Cleanup(func() { _ = exec.Command("tmux", "-S", tm.socket, "kill-server").Run() })
	return tm
}

func (tm *tmuxTerm) tmux(args ...string) string {
	tm.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "tmux", append([]string{"-S", tm.socket, "-f", tm.conf}, args...)...).CombinedOutput()
	require.NoError(tm.t, err, "tmux %v: %s", args, out)
	return string(out)
}

// keys sends tmux key names (Enter, Escape, or single characters).
func (tm *tmuxTerm) keys(keys ...string) {
	tm.tmux(append([]string{"send-keys", "-t", "tui"}, keys...)...)
}

// text types text literally.
func (tm *tmuxTerm) text(s string) { tm.tmux("send-keys", "-t", "tui", "-l", s) }

func (tm *tmuxTerm) screen() string { return tm.tmux("capture-pane", "-p", "-t", "tui") }

// waitFor polls the screen until ok accepts it. The deadline only bounds a
// hung program; the outcome never depends on it.
func (tm *tmuxTerm) waitFor(what string, ok func(screen string) bool) string {
	tm.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		s := tm.screen()
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			require.FailNow(tm.t, "screen never showed "+what, s)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func (tm *tmuxTerm) waitText(text string) string {
	tm.t.Helper()
	return tm.waitFor(text, func(s string) bool { return strings.Contains(s, text) })
}

func TestTUIEndToEndInTmux(t *testing.T) {
	servertest.SkipStoreNeutralOnPostgres(t, "the terminal UI")
	needTmux(t)
	cs := newCLIServer(t)
	token := cs.Login(cs.user).AccessToken
	seed := func(name, when string, n int) api.Asset {
		return cs.UploadAsset(token, name, servertest.JPEG(t, 32, 24, n),
			map[string]string{"file_created_at": when, "file_modified_at": when})
	}
	beach := seed("beach.jpg", "2024-05-03T10:00:00Z", 1)
	seed("harbour.jpg", "2024-05-02T10:00:00Z", 2)
	seed("forest.jpg", "2024-05-01T10:00:00Z", 3)
	seed("winter.jpg", "2023-12-24T10:00:00Z", 4)
	cs.login(t)

	tm := startTmux(t, append(cs.env, "TERM=xterm-256color"), photoctlBinary(t), "tui")
	screen := tm.waitText("Dec 2023")
	require.Contains(t, screen, "May 2024")
	require.Contains(t, screen, "[1 Timeline]")
	for _, line := range strings.Split(screen, "\n") {
		require.LessOrEqual(t, len([]rune(line)), 80)
	}

	tm.keys("g", "Enter") // the newest month: May 2024
	screen = tm.waitText("forest.jpg")
	require.Contains(t, screen, "[image]", "NO_COLOR: a text placeholder, no colour image")
	colours := tm.tmux("capture-pane", "-p", "-e", "-t", "tui")
	require.NotRegexp(t, `\x1b\[[0-9;]*[34]8;`, colours, "NO_COLOR: no colour sequences")
	require.Contains(t, screen, "beach.jpg")
	require.Contains(t, screen, "harbour.jpg")
	require.NotContains(t, screen, "winter.jpg")

	tm.keys("/")
	tm.waitText("\nSearch:") // the prompt line (capture-pane trims the space)
	tm.text("beach")
	tm.keys("Enter")
	screen = tm.waitText("Search: beach (1)")
	require.Contains(t, screen, "beach.jpg")
	require.NotContains(t, screen, "harbour.jpg")
	require.NotContains(t, screen, "forest.jpg")

	tm.keys("d")
	tm.waitText("Move 1 asset(s) to the trash? (y/n)")
	tm.keys("y")
	tm.waitText("Moved 1 asset(s) to the trash.")
	tm.keys("1") // the month list no longer shows it either
	screen = tm.waitFor("May 2024 without beach.jpg", func(s string) bool {
		return strings.Contains(s, "harbour.jpg") && !strings.Contains(s, "beach.jpg")
	})
	require.Contains(t, screen, "May 2024 (2)")

	got := cs.Do("GET", "/api/assets/"+beach.ID, token, nil).Map(t)
	require.NotNil(t, got["trashed_at"], "the server has it in the trash")

	tm.keys("q")
	tm.waitExit()
}

// waitExit waits for the program to quit, which ends the session.
func (tm *tmuxTerm) waitExit() {
	tm.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for exec.Command("tmux", "-S", tm.socket, "has-session", "-t", "tui").Run() == nil {
		if time.Now().After(deadline) {
			require.FailNow(tm.t, "photoctl tui did not quit on q", tm.screen())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestTUILearnsTheTerminalBackgroundInTmux: tmux answers the background
// colour query (OSC 11) with the pane's colour, and the browser picks its
// colours for that background and says which in help (?). Where nothing
// answers (tmux without a pane colour) it keeps the dark colours, and
// nothing waits for the answer.
func TestTUILearnsTheTerminalBackgroundInTmux(t *testing.T) {
	servertest.SkipStoreNeutralOnPostgres(t, "the terminal UI")
	needTmux(t)
	cs := newCLIServer(t)
	cs.login(t)
	env := []string{"TERM=xterm-256color"} // colour on: without NO_COLOR
	for _, kv := range cs.env {
		if !strings.HasPrefix(kv, "NO_COLOR=") && !strings.HasPrefix(kv, "TERM=") {
			env = append(env, kv)
		}
	}
	cases := []struct{ name, conf, note string }{
		{"light", "set -g window-style bg=white", "colours for a light background (the terminal's)"},
		{"dark", "set -g window-style bg=#1e1e1e", "colours for a dark background (the terminal's)"},
		{"no answer", "", "colours for a dark background (the terminal did not say)"},
	}
	accent := map[string]string{}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tm := startTmuxConf(t, c.conf, env, photoctlBinary(t), "tui")
			tm.waitText("[1 Timeline]")
			tm.keys("?")
			tm.waitText(c.note)
			accent[c.name] = foregroundOf(t, tm.tmux("capture-pane", "-p", "-e", "-t", "tui"), "[1 Timeline]")
			tm.keys("q") // closes help only
			tm.waitFor("help closed", func(s string) bool { return !strings.Contains(s, "Keys (any key closes)") })
			tm.keys("q")
			tm.waitExit()
		})
	}
	require.NotEqual(t, accent["light"], accent["dark"], "the active tab's colour follows the background")
	require.Equal(t, accent["dark"], accent["no answer"])
}

// foregroundOf is the foreground colour (SGR 38;…) that screen, captured
// with its escapes, draws text in.
func foregroundOf(t *testing.T, screen, text string) string {
	t.Helper()
	m := regexp.MustCompile(`((?:\x1b\[[0-9;:]*m)+)` + regexp.QuoteMeta(text)).FindStringSubmatch(screen)
	require.NotNil(t, m, "%s is drawn without attributes:\n%q", text, screen)
	fg := regexp.MustCompile(`38[;:](?:5[;:]\d+|2[;:]\d+[;:]\d+[;:]\d+)`).FindString(m[1])
	require.NotEmpty(t, fg, "%s has no foreground colour: %q", text, m[1])
	return fg
}
