package tui

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
)

// burst seeds three shots of one moment stacked with the middle one as
// cover, and an unstacked photo taken earlier: a May 2024 of two rows.
func (w *world) burst() (stack *api.Stack, members []api.Asset, single api.Asset) {
	w.t.Helper()
	single = w.seed("single.jpg", "2024-05-01T09:00:00", 9)
	members = []api.Asset{
		w.seed("burst-1.jpg", "2024-05-02T10:00:00", 1),
		w.seed("burst-2.jpg", "2024-05-02T10:00:01", 2),
		w.seed("burst-3.jpg", "2024-05-02T10:00:02", 3),
	}
	stack, err := w.c.CreateStack(context.Background(), w.lib, ids(members), members[1].ID)
	require.NoError(w.t, err)
	return stack, members, single
}

func (w *world) trashed(id string) bool {
	w.t.Helper()
	return w.s.Do("GET", "/api/assets/"+id, w.session, nil).Map(w.t)["trashed_at"] != nil
}

func TestStackCoverShowsItsCountAndTheDetailsNameTheStack(t *testing.T) {
	w := newWorld(t)
	stack, _, _ := w.burst()
	d := w.open(Options{})
	d.openMonth("May 2024")

	screen := d.view()
	require.Contains(t, screen, "May 2024 (2)", "the stack is one row")
	require.NotContains(t, screen, "burst-1.jpg")
	d.keys("g")
	require.Contains(t, d.currentLine(), "burst-2.jpg ▣ 3")
	require.Regexp(t, `Stack\s+cover of 3 \(enter opens\)`, d.view())
	require.Contains(t, d.view(), "id "+stack.ID)

	d.keys("j")
	require.Contains(t, d.currentLine(), "single.jpg")
	require.NotContains(t, d.currentLine(), "▣")
	require.NotContains(t, d.view(), "id "+stack.ID)
}

func TestOpeningAStackListsItsMembersAndEscGoesBack(t *testing.T) {
	w := newWorld(t)
	stack, _, _ := w.burst()
	d := w.open(Options{})
	d.openMonth("May 2024")
	month := d.m.view()

	d.keys("j", "enter") // on single.jpg: no stack, nothing opens
	require.Same(t, month, d.m.view())
	d.keys("k", "enter")
	screen := d.view()
	require.Contains(t, screen, "Stack of burst-2.jpg (3)")
	require.Contains(t, screen, "burst-1.jpg")
	require.Contains(t, screen, "burst-3.jpg")
	require.Contains(t, screen, "burst-2.jpg (cove", "cut at 80 columns")
	d.keys("j")
	require.Regexp(t, `Stack\s+cover of 3\s`, d.view())
	d.keys("k")
	require.NotContains(t, screen, "single.jpg")
	require.NotContains(t, screen, "▣ 3", "members are not covers")
	require.Contains(t, screen, "enter open a stack ▣ (esc back)", "the hints")

	d.keys("esc")
	require.Same(t, month, d.m.view(), "back to the month")
	require.Contains(t, d.view(), "May 2024 (2)")
	require.Contains(t, d.currentLine(), "burst-2.jpg ▣ 3", "the cursor where it was")

	// Trashing a member inside the stack: the cover counts the rest.
	d.keys("enter", "G", "d")
	require.Contains(t, d.view(), "Move 1 asset(s) to the trash? (y/n)", "a member is one asset")
	d.keys("y")
	require.Contains(t, d.view(), "Stack of burst-2.jpg (2)")
	d.keys("esc")
	require.Contains(t, d.currentLine(), "▣ 2")
	d.keys("esc")
	require.Contains(t, d.view(), "[1 Timeline]")
	_ = stack
}

func TestTrashingAStackCoverTrashesEveryMemberAndSaysHowMany(t *testing.T) {
	w := newWorld(t)
	_, members, single := w.burst()
	d := w.open(Options{})
	d.openMonth("May 2024")

	d.keys("g", "space", "space")
	require.Contains(t, d.view(), "2 selected")
	d.keys("d")
	require.Contains(t, d.view(), "Move 2 asset(s) (1 stack, 4 assets in all) to the trash? (y/n)")
	d.keys("n")
	require.Equal(t, 0, w.calls.count("POST /api/assets/trash"))
	for _, a := range members {
		require.False(t, w.trashed(a.ID))
	}

	d.keys("d", "y")
	require.Contains(t, d.view(), "Moved 2 asset(s) (1 stack, 4 assets in all) to the trash.")
	require.Contains(t, d.view(), "(nothing here)")
	for _, a := range append(members, single) {
		require.True(t, w.trashed(a.ID), a.OriginalFileName)
	}

	d.keys("5") // the trash lists each member on its own
	screen := d.view()
	for _, name := range []string{"single.jpg", "burst-1.jpg", "burst-2.jpg", "burst-3.jpg"} {
		require.Contains(t, screen, name)
	}
	require.Contains(t, screen, "Trash (4)")
}

func TestRatingAStackCoverRatesTheCoverOnlyAndSaysSo(t *testing.T) {
	w := newWorld(t)
	_, members, _ := w.burst()
	d := w.open(Options{})
	d.openMonth("May 2024")

	d.keys("g", "r")
	require.Contains(t, d.view(), "Rate 1 asset(s) (1 stack: the cover only): press 0–5")
	d.keys("5")
	require.Contains(t, d.view(), "Rated 1 asset(s) 5 (1 stack: the cover only).")
	rating := func(id string) any {
		return w.s.Do("GET", "/api/assets/"+id, w.session, nil).Map(t)["metadata"].(map[string]any)["rating"]
	}
	require.EqualValues(t, 5, rating(members[1].ID))
	require.Nil(t, rating(members[0].ID))
	require.Nil(t, rating(members[2].ID))
}

func TestAddingAStackCoverToAnAlbumAddsEveryMember(t *testing.T) {
	w := newWorld(t)
	w.burst()
	d := w.open(Options{})
	d.openMonth("May 2024")

	d.keys("g", "a")
	require.Contains(t, d.view(), "Add 1 asset(s) (1 stack, 3 assets in all) to which album?")
	d.keys("enter")
	d.typeText("Bursts")
	d.keys("enter")
	require.Contains(t, d.view(), "Added 1 asset(s) (1 stack, 3 assets in all) to Bursts.")
	d.keys("2")
	require.Regexp(t, `Bursts\s+3`, d.view())
}
