package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
)

// keyMap holds every binding of the browser; help lists them all.
type keyMap struct {
	NextTab, PrevTab key.Binding
	Tabs             [len(tabNames)]key.Binding
	Up, Down         key.Binding
	PageUp, PageDown key.Binding
	Top, Bottom      key.Binding
	Open, Back       key.Binding
	OpenStack        key.Binding // Open's keys in an asset list
	Select           key.Binding
	SelectNone       key.Binding
	Rate             key.Binding
	Describe         key.Binding
	AddToAlbum       key.Binding
	Trash, Restore   key.Binding
	View, Download   key.Binding
	Search           key.Binding
	Reload           key.Binding
	Help, Quit       key.Binding
}

func newKeyMap() keyMap {
	k := keyMap{
		NextTab:    key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next view")),
		PrevTab:    key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous view")),
		Up:         key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:       key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		PageUp:     key.NewBinding(key.WithKeys("pgup", "ctrl+u"), key.WithHelp("pgup", "page up")),
		PageDown:   key.NewBinding(key.WithKeys("pgdown", "ctrl+d"), key.WithHelp("pgdn", "page down")),
		Top:        key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("g/home", "first")),
		Bottom:     key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("G/end", "last loaded")),
		Open:       key.NewBinding(key.WithKeys("enter", "right", "l"), key.WithHelp("enter", "open month, album, person")),
		OpenStack:  key.NewBinding(key.WithKeys("enter", "right", "l"), key.WithHelp("enter", "open a stack ▣ (esc back)")),
		Back:       key.NewBinding(key.WithKeys("esc", "backspace", "left", "h"), key.WithHelp("esc", "back")),
		Select:     key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "select (bulk actions)")),
		SelectNone: key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "clear selection")),
		Rate:       key.NewBinding(key.WithKeys("r"), key.WithHelp("r 0-5", "rate")),
		Describe:   key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "edit description")),
		AddToAlbum: key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "add to album")),
		Trash:      key.NewBinding(key.WithKeys("d", "delete"), key.WithHelp("d", "move to trash (asks)")),
		Restore:    key.NewBinding(key.WithKeys("u"), key.WithHelp("u", "restore from trash (asks)")),
		View:       key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "open original in viewer")),
		Download:   key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "save (download) original")),
		Search:     key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "search")),
		Reload:     key.NewBinding(key.WithKeys("ctrl+r", "R"), key.WithHelp("R", "reload view")),
		Help:       key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Quit:       key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
	}
	for i, name := range tabNames {
		n := fmt.Sprint(i + 1)
		k.Tabs[i] = key.NewBinding(key.WithKeys(n), key.WithHelp(n, strings.ToLower(name)))
	}
	return k
}

// all lists every binding in the order help shows them.
func (k keyMap) all() []key.Binding {
	out := []key.Binding{k.NextTab, k.PrevTab}
	out = append(out, k.Tabs[:]...)
	return append(out, k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, k.Open, k.OpenStack, k.Back,
		k.Select, k.SelectNone, k.Rate, k.Describe, k.AddToAlbum, k.Trash, k.Restore, k.View, k.Download,
		k.Search, k.Reload, k.Help, k.Quit)
}

// short is the one-line reminder at the bottom of the screen; in an
// asset list enter opens stacks.
func (k keyMap) short(assets bool) []key.Binding {
	open := k.Open
	if assets {
		open = k.OpenStack
	}
	return []key.Binding{k.Tabs[0], open, k.Select, k.Rate, k.Trash, k.Search, k.Help, k.Quit}
}
