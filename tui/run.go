package tui

import (
	"context"
	"errors"
	"io"

	tea "charm.land/bubbletea/v2"
)

// Run shows the browser full-screen on the terminal of in and out until
// the user quits or ctx ends. Only here does the program talk to the
// terminal (it asks for the background colour once it runs): importing
// the package queries nothing, so other commands start at once.
func Run(ctx context.Context, opts Options, in io.Reader, out io.Writer) error {
	opts.Context = ctx
	_, err := tea.NewProgram(New(opts), tea.WithContext(ctx), tea.WithInput(in), tea.WithOutput(out)).Run()
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}
