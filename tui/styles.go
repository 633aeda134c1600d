package tui

import "charm.land/lipgloss/v2"

// styles are the screen's looks. Every distinction also shows without
// colour (brackets, markers), so NO_COLOR loses nothing but colour: the
// program drops colours the terminal cannot show (NO_COLOR, TERM=dumb).
type styles struct {
	dark           bool // chosen for a dark terminal background
	tab, activeTab lipgloss.Style
	title          lipgloss.Style
	cursor         lipgloss.Style
	selected       lipgloss.Style
	dim            lipgloss.Style
	label          lipgloss.Style
	status, errorS lipgloss.Style
	border         lipgloss.Style
}

// newStyles picks colours for a dark or a light terminal background. The
// browser starts dark and asks the terminal (tea.RequestBackgroundColor in
// Init); the answer, if any, arrives as a tea.BackgroundColorMsg.
func newStyles(dark bool) styles {
	pick := lipgloss.LightDark(dark)
	accent := pick(lipgloss.Color("#5A3FD9"), lipgloss.Color("#B7A6FF"))
	s := lipgloss.NewStyle()
	return styles{
		dark:      dark,
		tab:       s.Foreground(pick(lipgloss.Color("#555555"), lipgloss.Color("#AAAAAA"))),
		activeTab: s.Bold(true).Foreground(accent),
		title:     s.Bold(true),
		cursor:    s.Bold(true).Foreground(accent),
		selected:  s.Foreground(pick(lipgloss.Color("#A15C00"), lipgloss.Color("#FFC46B"))),
		dim:       s.Faint(true),
		label:     s.Foreground(accent),
		status:    s.Faint(true),
		errorS:    s.Bold(true).Foreground(pick(lipgloss.Color("#B00020"), lipgloss.Color("#FF6B6B"))),
		border:    s.Faint(true),
	}
}

// backgroundName is "dark" or "light", as help says.
func (s styles) backgroundName() string {
	if s.dark {
		return "dark"
	}
	return "light"
}

// backgroundNote says which colours the screen uses and why, in help.
func (m *Model) backgroundNote() string {
	if m.bgKnown {
		return "colours for a " + m.st.backgroundName() + " background (the terminal's)"
	}
	return "colours for a " + m.st.backgroundName() + " background (the terminal did not say)"
}
