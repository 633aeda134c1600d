package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// checkedInCompletion is the path of the checked-in script for shell.
func checkedInCompletion(shell string) string {
	return filepath.Join("..", "..", "completions", "photoctl."+shell)
}

func TestCompletionPrintsAScriptPerShell(t *testing.T) {
	tests := []struct {
		shell string
		want  string
	}{
		{"bash", "complete -o bashdefault -o default -F _photoctl_bash_autocomplete photoctl\n"},
		{"zsh", "#compdef photoctl\n"},
		{"fish", "complete -r -c photoctl -n '__fish_photoctl_no_subcommand' -a 'serve'"},
	}
	for _, tt := range tests {
		t.Run(tt.shell, func(t *testing.T) {
			isolate(t)
			r := runCLI(t, nil, "", "completion", tt.shell)
			require.Equal(t, exitOK, r.code, r.stderr)
			require.Empty(t, r.stderr)
			require.Contains(t, r.stdout, tt.want)
			require.NotContains(t, r.stdout, genDocsCommandName, "hidden commands are not offered")
		})
	}
}

func TestCompletionUsageErrorsExit2(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		wantStderr string
	}{
		{"an unknown shell", []string{"completion", "powershell"}, `unknown shell "powershell": want one of bash, zsh, fish`},
		{"no shell", []string{"completion"}, "missing shell: want one of bash, zsh, fish"},
		{"two shells", []string{"completion", "bash", "zsh"}, `unexpected argument "zsh"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			isolate(t)
			r := runCLI(t, nil, "", tt.args...)
			require.Equal(t, exitUsage, r.code)
			require.Empty(t, r.stdout)
			require.Contains(t, r.stderr, tt.wantStderr)
			require.Contains(t, r.stderr, "Run 'photoctl completion --help' for usage.")
		})
	}
}

func TestCompletionHelpShowsHowToInstall(t *testing.T) {
	isolate(t)
	r := runCLI(t, nil, "", "completion", "--help")
	require.Equal(t, exitOK, r.code)
	require.Contains(t, r.stdout, "photoctl completion [command options] bash|zsh|fish")
	require.Contains(t, r.stdout, "source <(photoctl completion bash)")
	require.Contains(t, r.stdout, "source <(photoctl completion zsh)")
	require.Contains(t, r.stdout, "photoctl completion fish > ~/.config/fish/completions/photoctl.fish")
}

func TestCompletionCompletesShellNames(t *testing.T) {
	isolate(t)
	r := runCLI(t, nil, "", "completion", "--generate-bash-completion")
	require.Equal(t, exitOK, r.code, r.stderr)
	require.Equal(t, "bash\nzsh\nfish\n", r.stdout)
}

func TestCompletionScriptsParse(t *testing.T) {
	tests := []struct {
		shell string
		check []string // the shell's syntax check, without the file
	}{
		{"bash", []string{"bash", "-n"}},
		{"zsh", []string{"zsh", "-n"}},
		{"fish", []string{"fish", "--no-execute"}},
	}
	for _, tt := range tests {
		t.Run(tt.shell, func(t *testing.T) {
			requireShell(t, tt.shell)
			args := append(tt.check[1:], checkedInCompletion(tt.shell))
			out, err := exec.Command(tt.check[0], args...).CombinedOutput()
			require.NoError(t, err, "%s", out)
		})
	}
}

// TestCompletionCompletesWithTheBinary sources each checked-in script in
// its shell, with the compiled photoctl first on PATH, and asks it to
// complete a command line. zsh's _describe and _files need a live
// completion widget, so they are stubbed to print the candidates.
func TestCompletionCompletesWithTheBinary(t *testing.T) {
	tests := []struct {
		name   string
		shell  string
		script string // $1 is the completion script
		want   []string
		reject []string
	}{
		{"bash completes a command", "bash",
			`source "$1"; COMP_WORDS=(photoctl se); COMP_CWORD=1; _photoctl_bash_autocomplete; echo "${COMPREPLY[@]}"`,
			[]string{"serve"}, []string{"admin", genDocsCommandName}},
		{"bash completes a subcommand", "bash",
			`source "$1"; COMP_WORDS=(photoctl admin c); COMP_CWORD=2; _photoctl_bash_autocomplete; echo "${COMPREPLY[@]}"`,
			[]string{"create-user"}, nil},
		{"bash completes a flag", "bash",
			`source "$1"; COMP_WORDS=(photoctl serve --l); COMP_CWORD=2; _photoctl_bash_autocomplete; echo "${COMPREPLY[@]}"`,
			[]string{"--listen", "--log-level", "--log-format"}, []string{"--data-dir"}},
		{"bash completes nothing after --", "bash",
			`source "$1"; COMP_WORDS=(photoctl serve -- x); COMP_CWORD=3; _photoctl_bash_autocomplete; echo "n=${#COMPREPLY[@]}"`,
			[]string{"n=0"}, nil},
		{"zsh completes a flag", "zsh",
			`compdef() { :; }; _describe() { print -l -- "${(@P)2}"; }; _files() { print FILES; }
			source "$1"; words=(photoctl serve --l); CURRENT=3; _photoctl`,
			[]string{"--listen", "--log-level"}, []string{"FILES"}},
		{"fish completes a command", "fish",
			`source $argv[1]; complete -C "photoctl se"`,
			[]string{"serve\tRun the photo library server"}, nil},
		{"fish completes the shells of completion", "fish",
			`source $argv[1]; complete -C "photoctl completion "`,
			[]string{"bash", "zsh", "fish"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			requireShell(t, tt.shell)
			bin := photoctlBinary(t)
			script, err := filepath.Abs(checkedInCompletion(tt.shell))
			require.NoError(t, err)

			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			var cmd *exec.Cmd
			switch tt.shell {
			case "fish":
				cmd = exec.CommandContext(ctx, "fish", "--no-config", "-c", tt.script, script)
			case "zsh":
				cmd = exec.CommandContext(ctx, "zsh", "-f", "-c", tt.script, "zsh", script)
			default:
				cmd = exec.CommandContext(ctx, "bash", "--norc", "-c", tt.script, "bash", script)
			}
			cmd.Env = binaryEnv(t, "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "%s", out)
			for _, w := range tt.want {
				require.Contains(t, string(out), w)
			}
			for _, w := range tt.reject {
				require.NotContains(t, strings.Fields(string(out)), w)
			}
		})
	}
}

// requireShell skips the test when shell is not installed.
func requireShell(t *testing.T, shell string) {
	t.Helper()
	if _, err := exec.LookPath(shell); err != nil {
		t.Skipf("%s is not installed, so its completion script cannot be checked", shell)
	}
}
