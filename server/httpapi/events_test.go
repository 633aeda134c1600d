package httpapi_test

import (
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

// TestEventFeedUnderConcurrentWriters runs writers of several kinds (asset
// uploads, edits, albums, people) in parallel while a client polls the feed
// the way the spec describes: it keeps the last id it saw and asks for what
// follows. The poller must see every event exactly once, in the order of
// the feed, and every acknowledged change must have its event.
func TestEventFeedUnderConcurrentWriters(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	lib := s.Libraries(session)[0].ID
	const writers, rounds = 4, 12
	before := len(s.Events(session, lib))

	var written atomic.Int64 // acknowledged changes, each one event
	done := make(chan struct{})
	var seen []api.Event
	pollerDone := make(chan struct{})
	poll := func(after string) api.Page[api.Event] {
		path := "/api/events?limit=17&library_id=" + lib
		if after != "" {
			path += "&starting_after_id=" + after
		}
		return servertest.Expect[api.Page[api.Event]](t, s.Do("GET", path, session, nil), http.StatusOK)
	}
	go func() {
		defer close(pollerDone)
		last := ""
		drain := func() {
			for {
				page := poll(last)
				seen = append(seen, page.Data...)
				if len(page.Data) > 0 {
					last = page.Data[len(page.Data)-1].ID
				}
				if !page.HasMore {
					return
				}
			}
		}
		for {
			select {
			case <-done:
				drain() // everything acknowledged is committed by now
				return
			default:
				drain()
			}
		}
	}()

	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range rounds {
				switch w {
				case 0, 1:
					a := s.UploadAsset(session, "e.jpg", servertest.JPEG(t, 8, 8, 1000*w+i), nil)
					written.Add(1)
					r := s.Do("PATCH", "/api/assets/"+a.ID, session, map[string]any{"rating": i % 6})
					require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
					written.Add(1)
				case 2:
					r := s.Do("POST", "/api/albums", session, map[string]any{"name": fmt.Sprintf("album %d", i)})
					require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
					written.Add(1)
				case 3:
					r := s.Do("POST", "/api/people", session, map[string]any{"name": fmt.Sprintf("person %d", i)})
					require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
					written.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	close(done)
	<-pollerDone

	all := s.Events(session, lib)
	ids := make([]string, len(seen))
	unique := map[string]bool{}
	for i, e := range seen {
		ids[i] = e.ID
		require.False(t, unique[e.ID], "event %s seen twice", e.ID)
		unique[e.ID] = true
	}
	want := make([]string, len(all))
	for i, e := range all {
		want[i] = e.ID
	}
	require.Equal(t, want, ids, "the poller saw the feed, in its order, without gaps")
	for i := 1; i < len(ids); i++ {
		require.Less(t, ids[i-1], ids[i], "ids increase along the feed")
	}
	require.EqualValues(t, int64(before)+written.Load(), len(seen), "one event per acknowledged change")
}
