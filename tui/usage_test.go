package tui

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
)

func TestStatusLineShowsStorageUse(t *testing.T) {
	w := newWorld(t)
	var me api.User
	w.s.Do("GET", "/api/users/me", w.session, nil).JSON(t, &me)
	w.s.SetQuota(me.ID, 2<<20)
	w.seed("a.jpg", "2024-05-01T10:00:00Z", 1)

	d := w.open(Options{})
	require.Regexp(t, `Storage: [0-9.]+ (KiB|B) of 2\.0 MiB used`, d.view())
	require.Equal(t, 1, w.calls.count("GET /api/users/me/storage"))
}
