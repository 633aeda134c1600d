package tui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/photoctl/photoctl/server/api"
)

// usageLoaded is the caller's storage use, shown on the status line
// while it has nothing else to say.
type usageLoaded struct {
	usage *api.StorageUsage
	err   error
}

// loadUsage asks for the caller's storage use. A failure (an API key
// without user.read) only leaves the figure out.
func (m *Model) loadUsage() tea.Cmd {
	ctx := m.ctx
	return func() tea.Msg {
		u, err := m.c.Storage(ctx)
		return usageLoaded{usage: u, err: err}
	}
}

func (msg usageLoaded) apply(m *Model) tea.Cmd {
	if msg.err == nil {
		m.usage = msg.usage
	}
	return nil
}

// usageText is "12.3 MiB of 1.0 GiB used" (or "12.3 MB used" without a
// quota), "" before it is known.
func (m *Model) usageText() string {
	if m.usage == nil {
		return ""
	}
	if m.usage.QuotaBytes == nil {
		return sizeText(m.usage.UsedBytes) + " used"
	}
	return fmt.Sprintf("%s of %s used", sizeText(m.usage.UsedBytes), sizeText(*m.usage.QuotaBytes))
}

// sizeText is bytesText (detail.go) with 0 shown as "0 B".
func sizeText(n int64) string {
	if n == 0 {
		return "0 B"
	}
	return bytesText(n)
}
