package tui

import (
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/server/api"
)

// prompt is a line being typed; submit gets the text on enter.
type prompt struct {
	label  string
	input  textinput.Model
	submit func(text string) tea.Cmd
}

func (m *Model) newPrompt(label, value string, submit func(string) tea.Cmd) {
	in := textinput.New()
	in.Prompt = ""
	in.CharLimit = 2000
	in.SetValue(value)
	st := textinput.DefaultStyles(m.st.dark)
	st.Cursor.Blink = false // no blink ticks
	in.SetStyles(st)
	in.Focus()
	m.prompt = &prompt{label: label, input: in, submit: submit}
}

func (m *Model) promptKey(msg tea.KeyPressMsg) tea.Cmd {
	switch msg.Code {
	case tea.KeyEscape:
		m.prompt = nil
		return nil
	case tea.KeyEnter:
		p := m.prompt
		m.prompt = nil
		return p.submit(p.input.Value())
	}
	m.prompt.input, _ = m.prompt.input.Update(msg)
	return nil
}

// startSearch asks for the text to search the library for.
func (m *Model) startSearch() {
	if m.libraryID == "" {
		return
	}
	m.newPrompt("Search: ", "", func(text string) tea.Cmd {
		text = strings.TrimSpace(text)
		if text == "" {
			return nil
		}
		return m.open(m.searchList("Search: "+text, client.SearchQuery{Query: text}))
	})
}

// confirmation is a yes/no question; run is the change on yes.
type confirmation struct {
	question string
	run      func() tea.Cmd
}

func (m *Model) confirmKey(msg tea.KeyPressMsg) tea.Cmd {
	c := m.confirm
	switch msg.String() {
	case "y", "Y", "enter":
		m.confirm = nil
		return c.run()
	case "n", "N", "esc", "q":
		m.confirm = nil
		m.inform("Cancelled.")
	}
	return nil
}

// ratingKey takes the digit after r.
func (m *Model) ratingKey(msg tea.KeyPressMsg) tea.Cmd {
	m.rating = false
	s := msg.String()
	if len(s) == 1 && s[0] >= '0' && s[0] <= '5' {
		return m.rate(int(s[0] - '0'))
	}
	m.inform("Rating cancelled (r then 0–5).")
	return nil
}

// albumPicker chooses the album that the targets go to (every member of
// a stack cover among them); the first row makes a new album.
type albumPicker struct {
	cursor  int
	targets spread
}

func (m *Model) startPicker() tea.Cmd {
	v := m.view()
	if v == nil || v.trash || len(v.targets()) == 0 {
		return nil
	}
	return m.spreadTargets(v, func(m *Model, s spread) tea.Cmd {
		m.picker = &albumPicker{targets: s}
		return m.albums.ensure(m.ctx)
	})
}

func (m *Model) pickerKey(msg tea.KeyPressMsg) tea.Cmd {
	pk := m.picker
	switch {
	case msg.Code == tea.KeyEscape || msg.String() == "q":
		m.picker = nil
	case msg.String() == "up" || msg.String() == "k":
		pk.cursor = max(0, pk.cursor-1)
	case msg.String() == "down" || msg.String() == "j":
		pk.cursor = min(pk.cursor+1, len(m.albums.items))
		m.albums.cursor = max(0, pk.cursor-1)
		if m.albums.near() {
			return m.albums.next(m.ctx)
		}
	case msg.Code == tea.KeyEnter:
		m.picker = nil
		if pk.cursor == 0 {
			m.newPrompt("New album name: ", "", func(name string) tea.Cmd {
				if name = strings.TrimSpace(name); name == "" {
					return nil
				}
				return m.addToNewAlbum(pk.targets, name)
			})
			return nil
		}
		return m.addToAlbum(pk.targets, m.albums.items[pk.cursor-1])
	}
	return nil
}

// albumName is the album's name for lists.
func albumName(a api.Album) string {
	if a.Name == "" {
		return "(untitled)"
	}
	return a.Name
}
