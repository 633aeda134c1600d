package storetest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// waitsFor is how long a transaction that must wait is watched not to
// start; a store that let it through would do so at once.
const waitsFor = 300 * time.Millisecond

// heldTx is a write transaction run in the background that writes a tag
// and an event of its library, then stays open until released.
type heldTx struct {
	entered  chan struct{} // closed when fn first runs
	release  chan struct{} // closed by the test to let fn return
	done     chan error    // the transaction's result
	once     sync.Once
	seenTags []string // the tag values of its library fn saw, its own included
}

// hold starts a transaction through begin (InTx or InLibraryTx of a
// library) that writes tag value into library libraryID and waits for
// release before it commits.
func hold(t *testing.T, begin func(context.Context, func(store.Repos) error) error, libraryID, value string) *heldTx {
	t.Helper()
	h := &heldTx{entered: make(chan struct{}), release: make(chan struct{}), done: make(chan error, 1)}
	go func() {
		h.done <- begin(ctx(t), func(r store.Repos) error {
			if err := writeTagAndEvent(ctx(t), r, libraryID, value); err != nil {
				return err
			}
			tags, err := r.Tags().List(ctx(t), libraryID)
			if err != nil {
				return err
			}
			h.seenTags = tagValues(tags)
			h.once.Do(func() { close(h.entered) })
			<-h.release
			return nil
		})
	}()
	t.Cleanup(h.let) // a failed test must not leave it open
	return h
}

// let releases the transaction (again is harmless).
func (h *heldTx) let() {
	select {
	case <-h.release:
	default:
		close(h.release)
	}
}

// requireEntered waits for the transaction to be inside fn.
func (h *heldTx) requireEntered(t *testing.T, what string) {
	t.Helper()
	select {
	case <-h.entered:
	case err := <-h.done:
		require.FailNow(t, what+" ended before it was released", "err: %v", err)
	case <-time.After(30 * time.Second):
		require.FailNow(t, what+" did not start")
	}
}

// requireWaiting requires the transaction not to start within waitsFor.
func (h *heldTx) requireWaiting(t *testing.T, what string) {
	t.Helper()
	select {
	case <-h.entered:
		require.FailNow(t, what+" started while it should wait")
	case err := <-h.done:
		require.FailNow(t, what+" ended while it should wait", "err: %v", err)
	case <-time.After(waitsFor):
	}
}

// requireCommitted releases the transaction and requires it to commit.
func (h *heldTx) requireCommitted(t *testing.T) {
	t.Helper()
	h.let()
	select {
	case err := <-h.done:
		require.NoError(t, err)
	case <-time.After(30 * time.Second):
		require.FailNow(t, "a released transaction did not commit")
	}
}

// writeTagAndEvent saves tag value and an event in library libraryID.
func writeTagAndEvent(c context.Context, r store.Repos, libraryID, value string) error {
	now := base
	if _, err := r.Tags().Upsert(c, &catalog.Tag{ID: catalog.NewID(catalog.PrefixTag, now), LibraryID: libraryID,
		Value: value, CreatedAt: now, UpdatedAt: now}); err != nil {
		return err
	}
	return r.Events().Append(c, &catalog.Event{Type: "tag.created", LibraryID: libraryID, ResourceID: value,
		CreatedAt: now})
}

func tagValues(tags []catalog.Tag) []string {
	out := make([]string, len(tags))
	for i, tg := range tags {
		out[i] = tg.Value
	}
	return out
}

// committedTags returns the tag values of a library as Read() sees them.
func committedTags(t *testing.T, s store.Store, libraryID string) []string {
	t.Helper()
	tags, err := s.Read().Tags().List(ctx(t), libraryID)
	require.NoError(t, err)
	return tagValues(tags)
}

// parallel reports whether s runs different libraries' transactions at once.
func parallel(s store.Store) bool {
	p, ok := s.(store.ParallelLibraryWriter)
	return ok && p.ParallelLibraryWrites()
}

var libraryTxCases = []testCase{
	{"library transactions of one library take turns, of two libraries run at once, and InTx waits for all", func(t *testing.T, s store.Store) {
		u := makeUser(t, s, "alice@example.com")
		libs := makeLibraries(t, s, u.ID, 2)
		a, b := libs[0].ID, libs[1].ID
		inA := func(c context.Context, fn func(store.Repos) error) error { return s.InLibraryTx(c, a, fn) }
		inB := func(c context.Context, fn func(store.Repos) error) error { return s.InLibraryTx(c, b, fn) }

		a1 := hold(t, inA, a, "a1")
		a1.requireEntered(t, "the first write to library A")
		if parallel(s) {
			// Library B writes and commits while A's transaction is open.
			c, cancel := context.WithTimeout(ctx(t), 10*time.Second)
			defer cancel()
			require.NoError(t, s.InLibraryTx(c, b, func(r store.Repos) error {
				return writeTagAndEvent(c, r, b, "b1")
			}))
			require.Equal(t, []string{"b1"}, committedTags(t, s, b))
			require.Empty(t, committedTags(t, s, a), "A's write is not committed yet")
		} else {
			t.Log("the store runs one write transaction at a time: a write to library B cannot commit while A's is open")
		}

		a2 := hold(t, inA, a, "a2")
		a2.requireWaiting(t, "a second write to library A")
		a1.requireCommitted(t)
		a2.requireEntered(t, "the second write to library A")
		require.Equal(t, []string{"a1", "a2"}, a2.seenTags, "the second write sees the first's commit")

		var b2 *heldTx
		if parallel(s) {
			// Held beside A's: InTx must wait for both.
			b2 = hold(t, inB, b, "b2")
			b2.requireEntered(t, "a write to library B beside A's")
		}
		g := hold(t, s.InTx, a, "g")
		g.requireWaiting(t, "InTx while library A's write is open")
		a2.requireCommitted(t)
		if b2 != nil {
			g.requireWaiting(t, "InTx while library B's write is open")
			b2.requireCommitted(t)
		}
		g.requireEntered(t, "InTx")
		require.Equal(t, []string{"a1", "a2", "g"}, g.seenTags)
		g.requireCommitted(t)
		if b2 != nil {
			require.Equal(t, []string{"b1", "b2"}, committedTags(t, s, b))
		}
		events, _, err := s.Read().Events().List(ctx(t), a, query.Page{Limit: 10})
		require.NoError(t, err)
		require.Len(t, events, 3)
		for i := 1; i < len(events); i++ {
			require.Less(t, events[i-1].ID, events[i].ID, "event ids follow commit order")
		}
	}},
	{"an empty library makes InLibraryTx a transaction like InTx", func(t *testing.T, s store.Store) {
		u := makeUser(t, s, "alice@example.com")
		lib := makeLibrary(t, s, u.ID, "A", 0)
		require.NoError(t, s.InLibraryTx(ctx(t), "", func(r store.Repos) error {
			return writeTagAndEvent(ctx(t), r, lib.ID, "x")
		}))
		require.Equal(t, []string{"x"}, committedTags(t, s, lib.ID))
	}},
}
