package cmdutil

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v2"
	"golang.org/x/term"
)

// ReadPasswordLine reads the password for --password-stdin: on a terminal
// it prompts on standard error and reads one line without echo; otherwise
// it takes the first line of standard input (a trailing \r dropped).
func ReadPasswordLine(c *cli.Context) (string, error) {
	if f, ok := c.App.Reader.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		fmt.Fprint(c.App.ErrWriter, "Password: ")
		b, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(c.App.ErrWriter)
		if err != nil {
			return "", fmt.Errorf("read password from the terminal: %w", err)
		}
		if len(b) == 0 {
			return "", UsageErrorf(c, "--password-stdin: no password given")
		}
		return string(b), nil
	}
	b, err := io.ReadAll(c.App.Reader)
	if err != nil {
		return "", fmt.Errorf("read password from stdin: %w", err)
	}
	line, _, _ := strings.Cut(string(b), "\n")
	if p := strings.TrimSuffix(line, "\r"); p != "" {
		return p, nil
	}
	return "", UsageErrorf(c, "--password-stdin: standard input is empty")
}
