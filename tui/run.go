package tui

import (
	"context"
	"errors"
	"io"

	tea "github.com/charmbracelet/bubbletea"
)

// Run shows the browser full-screen on the terminal of in and out until
// the user quits or ctx ends.
func Run(ctx context.Context, opts Options, in io.Reader, out io.Writer) error {
	opts.Context = ctx
	_, err := tea.NewProgram(New(opts), tea.WithContext(ctx), tea.WithInput(in), tea.WithOutput(out),
		tea.WithAltScreen()).Run()
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}
