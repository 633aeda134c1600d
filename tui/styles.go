package tui

import "github.com/charmbracelet/lipgloss"

// styles are the screen's looks. Every distinction also shows without
// colour (brackets, markers), so NO_COLOR loses nothing but colour.
type styles struct {
	tab, activeTab lipgloss.Style
	title          lipgloss.Style
	cursor         lipgloss.Style
	selected       lipgloss.Style
	dim            lipgloss.Style
	label          lipgloss.Style
	status, errorS lipgloss.Style
	border         lipgloss.Style
}

func newStyles(r *lipgloss.Renderer) styles {
	accent := lipgloss.AdaptiveColor{Light: "#5A3FD9", Dark: "#B7A6FF"}
	return styles{
		tab:       r.NewStyle().Foreground(lipgloss.AdaptiveColor{Light: "#555555", Dark: "#AAAAAA"}),
		activeTab: r.NewStyle().Bold(true).Foreground(accent),
		title:     r.NewStyle().Bold(true),
		cursor:    r.NewStyle().Bold(true).Foreground(accent),
		selected:  r.NewStyle().Foreground(lipgloss.AdaptiveColor{Light: "#A15C00", Dark: "#FFC46B"}),
		dim:       r.NewStyle().Faint(true),
		label:     r.NewStyle().Foreground(accent),
		status:    r.NewStyle().Faint(true),
		errorS:    r.NewStyle().Bold(true).Foreground(lipgloss.AdaptiveColor{Light: "#B00020", Dark: "#FF6B6B"}),
		border:    r.NewStyle().Faint(true),
	}
}
