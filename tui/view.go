package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/photoctl/photoctl/client"
)

// View is the screen on the alternate screen buffer.
func (m *Model) View() tea.View {
	v := tea.NewView(m.screen())
	v.AltScreen = true
	return v
}

// screen draws the tabs, the body, the status line and a line of key
// hints, every line at most the terminal's width.
func (m *Model) screen() string {
	lines := make([]string, 0, m.height)
	lines = append(lines, m.tabBar())
	body := m.body(m.height - 3)
	for len(body) < m.height-3 {
		body = append(body, "")
	}
	lines = append(lines, body[:m.height-3]...)
	lines = append(lines, m.statusLine(), m.hints())
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, m.width, "")
	}
	return strings.Join(lines, "\n")
}

func (m *Model) tabBar() string {
	var b strings.Builder
	for i, name := range tabNames {
		if i > 0 {
			b.WriteString(" ")
		}
		label := fmt.Sprintf("%d %s", i+1, name)
		if i == m.tab {
			b.WriteString(m.st.activeTab.Render("[" + label + "]"))
		} else {
			b.WriteString(m.st.tab.Render(" " + label + " "))
		}
	}
	if m.libraryName != "" {
		b.WriteString(m.st.dim.Render("  " + client.Printable(m.libraryName)))
	}
	return b.String()
}

// body is the tab's content in height lines.
func (m *Model) body(height int) []string {
	switch {
	case m.help:
		return m.helpLines(height)
	case m.picker != nil:
		return m.pickerLines(height)
	case m.view() != nil:
		return m.assetLines(m.view(), height)
	}
	return m.listLines(height)
}

func (m *Model) statusLine() string {
	switch {
	case m.prompt != nil:
		return m.st.label.Render(m.prompt.label) + m.prompt.input.View()
	case m.confirm != nil:
		return m.st.errorS.Render(client.Printable(m.confirm.question))
	case m.rating:
		v := m.view()
		targets := v.targets()
		return m.st.label.Render(fmt.Sprintf("Rate %d asset(s)%s: press 0–5 (0 clears), other keys cancel",
			len(targets), coversOnly(v, targets)))
	case m.failed:
		return m.st.errorS.Render("Error: " + client.Printable(m.status))
	case m.status == "" && m.usage != nil:
		return m.st.dim.Render("Storage: " + m.usageText()) // usage.go
	}
	return m.st.status.Render(client.Printable(m.status))
}

func (m *Model) hints() string {
	parts := []string{"1-7/tab views"}
	for _, b := range m.keys.short(m.view() != nil)[1:] {
		parts = append(parts, b.Help().Key+" "+b.Help().Desc)
	}
	return m.st.dim.Render(strings.Join(parts, " · "))
}

// helpLines lists every binding, in two columns when they do not fit in
// one.
func (m *Model) helpLines(height int) []string {
	all := m.keys.all()
	entries := make([]string, len(all))
	for i, b := range all {
		entries[i] = fmt.Sprintf("%-10s %s", b.Help().Key, b.Help().Desc)
	}
	lines := []string{m.st.title.Render("Keys (any key closes)") + m.st.dim.Render("  "+m.backgroundNote())}
	per := max(1, height-1)
	colW := max(20, m.width/2)
	for r := range min(per, len(entries)) {
		line := ""
		for c := 0; r+c*per < len(entries); c++ {
			line += pad(entries[r+c*per], colW)
		}
		lines = append(lines, line)
	}
	return lines
}

func (m *Model) pickerLines(height int) []string {
	lines := []string{m.st.title.Render(fmt.Sprintf("Add %s to which album? (enter, esc cancels)", m.picker.targets))}
	rows := []string{"+ New album…"}
	for _, a := range m.albums.items {
		rows = append(rows, fmt.Sprintf("%s (%d)", albumName(a), a.AssetCount))
	}
	first := max(0, m.picker.cursor-(height-2))
	for i := first; i < len(rows) && len(lines) < height; i++ {
		lines = append(lines, m.row(rows[i], i == m.picker.cursor, false))
	}
	return lines
}

// row is one list line with the cursor and selection markers. text,
// mostly server text (names, file names, task errors), is shown through
// client.Printable: no control character of it reaches the terminal.
func (m *Model) row(text string, cursor, selected bool) string {
	text = client.Printable(text)
	mark := "  "
	if cursor {
		mark = "▸ "
	}
	if selected {
		mark += "● "
	} else {
		mark += "  "
	}
	switch {
	case cursor:
		return m.st.cursor.Render(mark + text)
	case selected:
		return m.st.selected.Render(mark + text)
	}
	return mark + text
}

// errorText is what the status line says of a server error: its detail,
// or every validation message.
func errorText(e *client.APIError) string {
	if len(e.Fields) > 0 {
		msgs := make([]string, len(e.Fields))
		for i, f := range e.Fields {
			msgs[i] = client.FieldMessage(f)
		}
		return fmt.Sprintf("%d: %s", e.Status, strings.Join(msgs, "; "))
	}
	if e.Detail != "" {
		return fmt.Sprintf("%d: %s", e.Status, e.Detail)
	}
	return e.Error()
}
