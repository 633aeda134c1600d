package cmdutil

import (
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"os"
	"strings"

	"charm.land/lipgloss/v2"
	"charm.land/lipgloss/v2/table"
	"github.com/charmbracelet/x/ansi"
	"github.com/mattn/go-isatty"
	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/client"
)

// JSONFlag is --json, on every command that prints data.
func JSONFlag() cli.Flag {
	return &cli.BoolFlag{Name: "json", Usage: "print JSON for scripts instead of a table"}
}

// QuietFlag is -q/--quiet, on the commands that report progress: as with
// restic, it leaves only the errors (and --json output); the exit status
// tells the outcome.
func QuietFlag() cli.Flag {
	return &cli.BoolFlag{Name: "quiet", Aliases: []string{"q"},
		Usage: "print only errors: no progress bar, no per-item lines, no summary (the exit status tells)"}
}

// Streams are a command's output and error streams with what they are
// attached to: data goes to Out, progress and messages to Err; colour and
// progress bars only on a terminal.
type Streams struct {
	In       io.Reader
	Out, Err io.Writer
	// OutTTY and ErrTTY say whether the streams are terminals.
	OutTTY, ErrTTY bool
	// Color is OutTTY unless NO_COLOR is set or TERM is dumb.
	Color bool
	// Quiet is --quiet: no progress and no status lines, only errors
	// (and the --json output, which is data).
	Quiet bool
	// Progress says whether to draw progress bars: on a terminal, unless
	// Quiet.
	Progress bool
}

func NewStreams(c *cli.Context) *Streams {
	s := &Streams{In: c.App.Reader, Out: c.App.Writer, Err: c.App.ErrWriter, Quiet: c.Bool("quiet")}
	s.OutTTY, s.ErrTTY = IsTerminal(s.Out), IsTerminal(s.Err)
	s.Progress = s.ErrTTY && !s.Quiet
	s.Color = s.OutTTY && os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb"
	return s
}

func IsTerminal(w any) bool {
	f, ok := w.(interface{ Fd() uintptr })
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

// PrintJSON writes v indented, with a final newline.
func PrintJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// JSONArray streams a JSON array item by item, so that a long listing is
// never held in memory.
type JSONArray struct {
	W     io.Writer
	Count int
}

func (a *JSONArray) Add(v any) error {
	b, err := json.MarshalIndent(v, "  ", "  ")
	if err != nil {
		return err
	}
	sep := ",\n  "
	if a.Count == 0 {
		sep = "[\n  "
	}
	a.Count++
	_, err = fmt.Fprintf(a.W, "%s%s", sep, b)
	return err
}

func (a *JSONArray) Close() error {
	if a.Count == 0 {
		_, err := io.WriteString(a.W, "[]\n")
		return err
	}
	_, err := io.WriteString(a.W, "\n]\n")
	return err
}

// PrintTable writes rows under headers: plain columns two spaces apart
// when piped (easy for cut and awk), with a bold header and a rule on a
// terminal with colour. Rendering never asks the terminal anything.
func PrintTable(s *Streams, headers []string, rows [][]string) error {
	header := lipgloss.NewStyle().Bold(s.Color).PaddingRight(2)
	cell := lipgloss.NewStyle().PaddingRight(2)
	t := table.New().Headers(headers...).
		Border(lipgloss.NormalBorder()).BorderStyle(lipgloss.NewStyle().Faint(s.Color)).
		BorderTop(false).BorderBottom(false).BorderLeft(false).BorderRight(false).
		BorderColumn(false).BorderHeader(s.Color).
		StyleFunc(func(row, _ int) lipgloss.Style {
			if row == table.HeaderRow {
				return header
			}
			return cell
		})
	clean := make([][]string, len(rows))
	for i, r := range rows {
		clean[i] = make([]string, len(r))
		for j, cell := range r {
			clean[i][j] = Sanitize(cell)
		}
	}
	t.Rows(clean...)
	out := t.Render()
	if !s.Color {
		out = ansi.Strip(out) // no escape codes at all
	}
	// Trailing padding is noise in files and diffs.
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	_, err := fmt.Fprintln(s.Out, strings.Join(lines, "\n"))
	return err
}

// OrDash shows an empty value as "-" in tables.
func OrDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// HumanBytes formats a byte count as 1.5 MB (decimal units, as disks and
// networks count).
func HumanBytes(n int64) string {
	const unit = 1000
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %cB", float64(n)/float64(div), "kMGTPE"[exp])
}

// PrintAll reads every item of seq, a listing the server pages through,
// and prints them as PrintList does: the run of a list command.
func PrintAll[T any](io *Streams, asJSON bool, seq iter.Seq2[T, error], headers []string, row func(T) []string) error {
	items, err := client.Collect(seq)
	if err != nil {
		return err
	}
	return PrintList(io, asJSON, items, headers, row)
}

// PrintList prints a listing: with --json the items as a JSON array (an
// empty one, never null), else a table of row(item) under headers.
func PrintList[T any](io *Streams, asJSON bool, items []T, headers []string, row func(T) []string) error {
	if asJSON {
		if items == nil {
			items = []T{}
		}
		return PrintJSON(io.Out, items)
	}
	return PrintTable(io, headers, RowsOf(items, row))
}

// RowsOf turns items into table rows.
func RowsOf[T any](items []T, row func(T) []string) [][]string {
	rows := make([][]string, 0, len(items))
	for _, item := range items {
		rows = append(rows, row(item))
	}
	return rows
}

// PrintRecords prints records read one by one (`get ID...`): with --json
// one object for one record, an array for several; else the label/value
// lines of fields(record), a blank line between records.
func PrintRecords[T any](io *Streams, asJSON bool, items []T, fields func(T) [][]string) error {
	if asJSON {
		if len(items) == 1 {
			return PrintJSON(io.Out, items[0])
		}
		return PrintList(io, true, items, nil, nil)
	}
	for i, item := range items {
		if i > 0 {
			fmt.Fprintln(io.Out)
		}
		if err := PrintFields(io, fields(item)); err != nil {
			return err
		}
	}
	return nil
}

// PrintDone reports a change: with --json v, else the message, one line.
func PrintDone(io *Streams, asJSON bool, v any, format string, args ...any) error {
	if asJSON {
		return PrintJSON(io.Out, v)
	}
	_, err := fmt.Fprintln(io.Out, SanitizeLines(fmt.Sprintf(format, args...)))
	return err
}

// PrintFields prints label/value pairs, one a line.
func PrintFields(io *Streams, rows [][]string) error {
	width := 0
	for _, r := range rows {
		width = max(width, len(r[0]))
	}
	for _, r := range rows {
		if _, err := fmt.Fprintf(io.Out, "%-*s  %s\n", width, r[0], Sanitize(r[1])); err != nil {
			return err
		}
	}
	return nil
}

// Sanitize makes text from the server safe to print on a terminal, on one
// line (client.Printable): a name such as "\x1b[2J" is shown escaped and
// cannot clear the screen of whoever lists it. Tables, records, messages
// and errors all go through it; --json needs nothing (encoding/json
// escapes control characters).
func Sanitize(s string) string { return client.Printable(s) }

// SanitizeLines is Sanitize for a message of several lines: newlines stay.
func SanitizeLines(s string) string { return client.PrintableLines(s) }

// PrintSecret prints what the server answered a create whose secret it
// shows once (an API key, an OAuth client, an invitation): v with --json,
// else notice on the error stream and secret (the part scripts capture)
// on the output.
func PrintSecret(io *Streams, asJSON bool, v any, notice, secret string) error {
	if asJSON {
		return PrintJSON(io.Out, v)
	}
	fmt.Fprint(io.Err, notice)
	_, err := fmt.Fprint(io.Out, secret)
	return err
}
