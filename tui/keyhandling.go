package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// key handles a key press: an open dialog (help, prompt, question,
// rating, album picker) takes it first.
func (m *Model) key(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case msg.String() == "ctrl+c":
		return tea.Quit
	case m.help:
		m.help = false
		return nil
	case m.prompt != nil:
		return m.promptKey(msg)
	case m.confirm != nil:
		return m.confirmKey(msg)
	case m.rating:
		return m.ratingKey(msg)
	case m.picker != nil:
		return m.pickerKey(msg)
	}
	return m.browseKey(msg)
}

// browseKey handles a key outside any dialog.
func (m *Model) browseKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys
	for i, b := range k.Tabs {
		if key.Matches(msg, b) {
			return m.setTab(i)
		}
	}
	switch {
	case key.Matches(msg, k.Quit):
		return tea.Quit
	case key.Matches(msg, k.Help):
		m.help = true
	case key.Matches(msg, k.NextTab):
		return m.setTab((m.tab + 1) % len(tabNames))
	case key.Matches(msg, k.PrevTab):
		return m.setTab((m.tab + len(tabNames) - 1) % len(tabNames))
	case key.Matches(msg, k.Search):
		m.tab = tabSearch
		m.startSearch()
	case key.Matches(msg, k.Reload):
		return m.reload()
	case key.Matches(msg, k.Up):
		return m.move(-1)
	case key.Matches(msg, k.Down):
		return m.move(1)
	case key.Matches(msg, k.PageUp):
		return m.move(-m.rows())
	case key.Matches(msg, k.PageDown):
		return m.move(m.rows())
	case key.Matches(msg, k.Top):
		return m.move(-1 << 30)
	case key.Matches(msg, k.Bottom):
		return m.move(1 << 30)
	case key.Matches(msg, k.Back):
		return m.back()
	case m.view() != nil:
		return m.assetKey(msg)
	case key.Matches(msg, k.Open):
		return m.enter()
	}
	return nil
}

// assetKey handles the keys of an asset list.
func (m *Model) assetKey(msg tea.KeyPressMsg) tea.Cmd {
	k, v := m.keys, m.view()
	switch {
	case key.Matches(msg, k.Select):
		if a, ok := v.p.current(); ok {
			if v.selected[a.ID] {
				delete(v.selected, a.ID)
			} else {
				v.selected[a.ID] = true
			}
			return m.move(1)
		}
	case key.Matches(msg, k.SelectNone):
		clear(v.selected)
	case key.Matches(msg, k.OpenStack):
		return m.openStack()
	case key.Matches(msg, k.Rate):
		if len(v.targets()) > 0 && !v.trash {
			m.rating = true
		}
	case key.Matches(msg, k.Describe):
		m.startDescribe()
	case key.Matches(msg, k.AddToAlbum):
		return m.startPicker()
	case key.Matches(msg, k.Trash):
		return m.askTrash()
	case key.Matches(msg, k.Restore):
		return m.askRestore()
	case key.Matches(msg, k.View):
		return m.viewOriginal()
	case key.Matches(msg, k.Download):
		return m.download()
	}
	return nil
}

// move moves the cursor of the list shown.
func (m *Model) move(delta int) tea.Cmd {
	rows := m.rows()
	if v := m.view(); v != nil {
		before := v.p.cursor
		cmd := v.p.move(m.ctx, delta, rows)
		if v.p.cursor != before {
			return tea.Batch(cmd, m.cursorMoved())
		}
		return cmd
	}
	switch m.tab {
	case tabTimeline:
		return m.months.move(m.ctx, delta, rows)
	case tabAlbums:
		return m.albums.move(m.ctx, delta, rows)
	case tabPeople:
		return m.people.move(m.ctx, delta, rows)
	case tabTasks:
		return m.tasks.move(m.ctx, delta, rows)
	case tabLibraries:
		return m.libraries.move(m.ctx, delta, rows)
	}
	return nil
}

// enter opens the item under the cursor of a tab's own list.
func (m *Model) enter() tea.Cmd {
	switch m.tab {
	case tabTimeline:
		return m.openMonth()
	case tabAlbums:
		return m.openAlbum()
	case tabPeople:
		return m.openPerson()
	case tabSearch:
		m.startSearch()
	case tabLibraries:
		if l, ok := m.libraries.current(); ok {
			m.setLibrary(l.ID, l.Name)
			m.inform("Library %s.", l.Name)
			return m.setTab(tabTimeline)
		}
	}
	return nil
}

// back closes a stack's members, else the asset list opened from a
// tab's list.
func (m *Model) back() tea.Cmd {
	if cmd, ok := m.closeStack(); ok {
		return cmd
	}
	if m.tab == tabTrash || m.opened[m.tab] == nil {
		return nil
	}
	m.opened[m.tab] = nil
	return m.setTab(m.tab) // its list may have been reset meanwhile
}

// reload forgets the list shown and fetches it again.
func (m *Model) reload() tea.Cmd {
	if v := m.view(); v != nil {
		v.p.reset()
		clear(v.selected)
		return v.p.ensure(m.ctx)
	}
	switch m.tab {
	case tabTimeline:
		m.months.reset()
	case tabAlbums:
		m.albums.reset()
	case tabPeople:
		m.people.reset()
	case tabLibraries:
		m.libraries.reset()
	}
	return m.setTab(m.tab)
}
