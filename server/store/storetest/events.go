package storetest

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// newEvent returns an unsaved event of library libraryID whose id is made
// at minute m, so a test can make id order differ from commit order.
func newEvent(libraryID string, m int) *catalog.Event {
	return &catalog.Event{ID: catalog.NewID(catalog.PrefixEvent, at(m)), Type: "asset.created",
		LibraryID: libraryID, ResourceID: catalog.NewID(catalog.PrefixAsset, at(m)),
		Data: []byte(fmt.Sprintf(`{"minute":%d}`, m)), CreatedAt: at(m)}
}

// appendEvents appends events in one transaction, in the given order.
func appendEvents(t *testing.T, s store.Store, events ...*catalog.Event) {
	t.Helper()
	write(t, s, func(r store.Repos) error {
		for _, e := range events {
			if err := r.Events().Append(ctx(t), e); err != nil {
				return err
			}
		}
		return nil
	})
}

// listEvents returns the event list of library libraryID over Read().
func listEvents(t *testing.T, s store.Store, libraryID string) list[catalog.Event] {
	return func(p query.Page) ([]catalog.Event, bool, error) {
		return s.Read().Events().List(ctx(t), libraryID, p)
	}
}

func eventID(e catalog.Event) string { return e.ID }

// eventLibraries saves a user owning n libraries and returns their ids, so
// events point at real libraries even where a store enforces that.
func eventLibraries(t *testing.T, s store.Store, n int) []string {
	t.Helper()
	u := makeUser(t, s, "alice@example.com")
	return idsOf(makeLibraries(t, s, u.ID, n), func(l *catalog.Library) string { return l.ID })
}

// eventIDs returns the ids of events in the given order.
func eventIDs(events ...*catalog.Event) []string {
	return idsOf(events, func(e *catalog.Event) string { return e.ID })
}

var eventCases = []testCase{
	{"events list oldest first in commit order, not id order", func(t *testing.T, s store.Store) {
		lib := eventLibraries(t, s, 1)[0]
		late, early, middle := newEvent(lib, 5), newEvent(lib, 1), newEvent(lib, 3)
		appendEvents(t, s, late)
		appendEvents(t, s, early, middle)
		items, more := firstPage(t, 10, listEvents(t, s, lib))
		require.False(t, more)
		require.Equal(t, []catalog.Event{*late, *early, *middle}, items)
	}},
	{"events are scoped to their library", func(t *testing.T, s store.Store) {
		u := makeUser(t, s, "alice@example.com")
		a, b := makeLibrary(t, s, u.ID, "A", 0), makeLibrary(t, s, u.ID, "B", 1)
		a1, b1, a2, b2 := newEvent(a.ID, 1), newEvent(b.ID, 2), newEvent(a.ID, 3), newEvent(b.ID, 4)
		appendEvents(t, s, a1, b1)
		appendEvents(t, s, a2, b2)
		checkPaging(t, eventIDs(a1, a2), eventID, listEvents(t, s, a.ID))
		checkPaging(t, eventIDs(b1, b2), eventID, listEvents(t, s, b.ID))
	}},
	{"paging is exact for every limit and sees events appended later", func(t *testing.T, s store.Store) {
		lib := eventLibraries(t, s, 1)[0]
		events := []*catalog.Event{newEvent(lib, 4), newEvent(lib, 2), newEvent(lib, 9), newEvent(lib, 1), newEvent(lib, 7)}
		appendEvents(t, s, events[:3]...)
		appendEvents(t, s, events[3:]...)
		checkPaging(t, eventIDs(events...), eventID, listEvents(t, s, lib))

		last := newEvent(lib, 0)
		appendEvents(t, s, last)
		items, more, err := s.Read().Events().List(ctx(t), lib, query.Page{Limit: 10, AfterID: events[4].ID})
		require.NoError(t, err)
		require.False(t, more)
		require.Equal(t, eventIDs(last), idsOf(items, eventID))
	}},
	{"a library without events lists an empty last page", func(t *testing.T, s store.Store) {
		libs := eventLibraries(t, s, 2)
		appendEvents(t, s, newEvent(libs[0], 1))
		items, more := firstPage(t, 10, listEvents(t, s, libs[1]))
		require.Empty(t, items)
		require.False(t, more)
	}},
	{"a cursor naming another library's event is a validation error", func(t *testing.T, s store.Store) {
		alice := makeUser(t, s, "alice@example.com")
		bob := makeUser(t, s, "bob@example.com")
		mine, theirs := makeLibrary(t, s, alice.ID, "Mine", 0), makeLibrary(t, s, bob.ID, "Theirs", 1)
		foreign := newEvent(theirs.ID, 2)
		appendEvents(t, s, newEvent(mine.ID, 1), foreign, newEvent(mine.ID, 3))
		_, _, err := s.Read().Events().List(ctx(t), mine.ID, query.Page{Limit: 10, AfterID: foreign.ID})
		requireInvalidCursor(t, err)
	}},
	{"a cursor naming an unknown event is a validation error", func(t *testing.T, s store.Store) {
		lib := eventLibraries(t, s, 1)[0]
		appendEvents(t, s, newEvent(lib, 1))
		_, _, err := s.Read().Events().List(ctx(t), lib,
			query.Page{Limit: 10, AfterID: catalog.NewID(catalog.PrefixEvent, at(2))})
		requireInvalidCursor(t, err)
	}},
	{"an event appended in a rolled-back transaction is never listed", func(t *testing.T, s store.Store) {
		lib := eventLibraries(t, s, 1)[0]
		kept, lost := newEvent(lib, 1), newEvent(lib, 2)
		appendEvents(t, s, kept)
		errRollback := errors.New("roll back")
		err := writeErr(t, s, func(r store.Repos) error {
			require.NoError(t, r.Events().Append(ctx(t), lost))
			return errRollback
		})
		require.ErrorIs(t, err, errRollback)
		after := newEvent(lib, 3)
		appendEvents(t, s, after)
		checkPaging(t, eventIDs(kept, after), eventID, listEvents(t, s, lib))
	}},
}
