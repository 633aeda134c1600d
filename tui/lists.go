package tui

import (
	"fmt"
	"time"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/server/api"
)

// listLines draws the tab's own list: months, albums, people, tasks,
// libraries, or the search hint.
func (m *Model) listLines(height int) []string {
	if m.libraryID == "" && m.tab != tabLibraries {
		return []string{"", "  No library open: press 7 to choose one."}
	}
	switch m.tab {
	case tabTimeline:
		return pagerLines(m, m.months, "Timeline by month (enter opens a month)", height, func(b api.AssetCount) string {
			label := b.Bucket
			if t, err := time.Parse("2006-01", b.Bucket); err == nil {
				label = t.Format("Jan 2006")
			}
			return fmt.Sprintf("%-10s %6d", label, b.Count)
		})
	case tabAlbums:
		return pagerLines(m, m.albums, "Albums (enter opens one)", height, func(a api.Album) string {
			span := ""
			if a.StartDate != nil && a.EndDate != nil {
				span = "  " + shortDate(*a.StartDate) + " – " + shortDate(*a.EndDate)
			}
			return fmt.Sprintf("%-30s %5d%s", albumName(a), a.AssetCount, span)
		})
	case tabPeople:
		return pagerLines(m, m.people, "People (enter shows their pictures)", height, func(p api.Person) string {
			return fmt.Sprintf("%-30s %5d", personName(p), p.AssetCount)
		})
	case tabSearch:
		return []string{m.st.title.Render("Search"), "",
			"  Press / (or enter), type what to look for and press enter:",
			"  text in descriptions and pictures, places, people, albums, file names, cameras."}
	case tabTasks:
		return pagerLines(m, m.tasks, m.taskTitle(), height, taskRow)
	case tabLibraries:
		return pagerLines(m, m.libraries, "Libraries (enter switches)", height, func(l api.Library) string {
			cur := ""
			if l.ID == m.libraryID {
				cur = "  (open)"
			}
			return fmt.Sprintf("%-30s %-8s%s", l.Name, l.Role, cur)
		})
	}
	return nil
}

// pagerLines draws a title and the rows of p shown at its scroll offset.
func pagerLines[T any](m *Model, p *pager[T], title string, height int, text func(T) string) []string {
	lines := []string{m.st.title.Render(client.Printable(title))}
	rows := height - 1
	p.scroll(rows)
	switch {
	case len(p.items) == 0 && (p.loading || !p.loaded):
		return append(lines, "  (loading…)")
	case len(p.items) == 0:
		return append(lines, "  (nothing here)")
	}
	for i := p.offset; i < len(p.items) && len(lines) <= rows; i++ {
		lines = append(lines, m.row(text(p.items[i]), i == p.cursor, false))
	}
	if p.loading && len(lines) <= rows {
		lines = append(lines, m.st.dim.Render("    (loading more…)"))
	}
	return lines
}

func shortDate(s string) string {
	if len(s) >= 10 {
		return s[:10]
	}
	return s
}

// assetLines draws an asset list, and beside it (when there is room) the
// detail pane with the preview.
func (m *Model) assetLines(v *assetView, height int) []string {
	count := fmt.Sprintf("%d", len(v.p.items))
	if v.p.more {
		count += "+"
	}
	title := fmt.Sprintf("%s (%s)", v.title, count)
	if n := len(v.selected); n > 0 {
		title += fmt.Sprintf(", %d selected", n)
	}
	if v.title != "Trash" {
		title += "  esc back"
	}
	left := pagerLines(m, v.p, title, height, v.rowText)
	for i := 1; i < len(left); i++ { // mark the selection
		if idx := v.p.offset + i - 1; idx < len(v.p.items) && v.selected[v.p.items[idx].ID] {
			left[i] = m.row(v.rowText(v.p.items[idx]), idx == v.p.cursor, true)
		}
	}
	if m.width < 60 {
		return left
	}
	lw := max(36, m.width/2)
	rw := m.width - lw - 3
	right := m.detailPane(v, rw, height)
	out := make([]string, height)
	for i := range out {
		l, r := "", ""
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			r = right[i]
		}
		out[i] = pad(l, lw) + m.st.border.Render(" │ ") + r
	}
	return out
}

// detailPane is the metadata of the asset under the cursor, then its
// preview in the rows left.
func (m *Model) detailPane(v *assetView, cols, height int) []string {
	a, ok := v.p.current()
	if !ok {
		return nil
	}
	var lines []string
	for _, kv := range append(stackLines(v, a), detailLines(a, m.infos[a.ID])...) {
		kv = [2]string{client.Printable(kv[0]), client.Printable(kv[1])} // server text
		if kv[0] == "" {                                                 // a long value: the whole width
			lines = append(lines, pad(kv[1], cols))
			continue
		}
		label := m.st.label.Render(fmt.Sprintf("%-9s", truncate(kv[0], 9)))
		lines = append(lines, label+" "+pad(kv[1], max(1, cols-10)))
	}
	if len(lines) >= height-2 {
		return lines[:min(height, len(lines))]
	}
	lines = append(lines, "")
	return append(lines, m.previewLines(a, cols, height-len(lines))...)
}

func truncate(s string, n int) string {
	if len([]rune(s)) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}
