package pipeline_test

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/assets"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/devseed"
	"github.com/photoctl/photoctl/server/pipeline"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/tasks"
)

// TestRegeocodeNamesTheTownOfAnAssetStoredWithTheAdminLabel: an asset
// geocoded before towns were known says "Florida, United States of
// America"; the regeocode task, queued once for a new data version, names
// Cape Canaveral, and the search finds it by that name. An asset without a
// position is not touched.
func TestRegeocodeNamesTheTownOfAnAssetStoredWithTheAdminLabel(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	path := halves(t, 64, 48)
	tag(t, path, "-GPSLatitude=28.39", "-GPSLatitudeRef=N", "-GPSLongitude=80.60", "-GPSLongitudeRef=W")
	a := e.ingest(e.upload(path, "", assets.UploadInput{}).ID)
	require.Equal(t, ptr("Cape Canaveral, United States of America"), a.Merged().DisplayLabel)
	plain := e.upload(halves(t, 48, 64), "", assets.UploadInput{})
	require.NoError(t, e.p.Metadata(e.ctx, plain.ID))
	plainBefore := e.get(plain.ID)

	// What the geocoder of the admin areas alone stored.
	old := catalog.Metadata{Country: ptr("United States of America"), CountryCode: ptr("US"), State: ptr("Florida"),
		PlaceName: ptr("Florida"), DisplayLabel: ptr("Florida, United States of America")}
	require.NoError(t, e.st.InTx(e.ctx, func(r store.Repos) error {
		stored, err := r.Assets().Get(e.ctx, a.ID)
		if err != nil {
			return err
		}
		stored.GeoMeta = old
		return r.Assets().Update(e.ctx, stored)
	}))
	require.Equal(t, ptr("Florida, United States of America"), e.get(a.ID).Merged().DisplayLabel)
	require.Empty(t, e.search(a.LibraryID, "canaveral"), "the old label is not searchable by the town")

	now := time.Now()
	require.NoError(t, pipeline.ScheduleRegeocodes(e.ctx, e.st, "test-version", now))
	require.NoError(t, pipeline.ScheduleRegeocodes(e.ctx, e.st, "test-version", now.Add(time.Second)), "a second start")
	queued := e.regeocodeTasks(a.LibraryID)
	require.Len(t, queued, 1, "one task for the library, queued once for the version")

	for _, k := range e.p.Kinds() {
		if k.Name == pipeline.KindRegeocode {
			require.NoError(t, k.Run(e.ctx, &queued[0]))
		}
	}
	got := e.get(a.ID)
	requireLayer(t, catalog.Metadata{Country: ptr("United States of America"), CountryCode: ptr("US"), State: ptr("Florida"),
		City: ptr("Cape Canaveral"), PlaceName: ptr("Cape Canaveral"), DisplayLabel: ptr("Cape Canaveral, United States of America")}, got.GeoMeta)
	require.Equal(t, []string{a.ID}, e.search(a.LibraryID, "canaveral"), "the search text follows the place")
	require.Equal(t, plainBefore.UpdatedAt, e.get(plain.ID).UpdatedAt, "an asset without a position is not written")
	require.Equal(t, plainBefore.GeoMeta, e.get(plain.ID).GeoMeta)

	n, err := pipeline.Regeocode(e.ctx, e.st, now.Add(2*time.Second))
	require.NoError(t, err)
	require.Equal(t, 1, n, "an administrator queues it again for the one library with positions")
}

// regeocodeTasks returns the library's queued regeocode tasks.
func (e *env) regeocodeTasks(libraryID string) []catalog.Task {
	e.t.Helper()
	list, _, err := e.st.Read().Tasks().List(e.ctx, query.TaskFilter{LibraryID: libraryID, Kind: pipeline.KindRegeocode,
		State: catalog.TaskQueued}, query.Page{Limit: 10})
	require.NoError(e.t, err)
	return list
}

// search returns the ids of the library's assets whose text matches word.
func (e *env) search(libraryID, word string) []string {
	e.t.Helper()
	found, _, err := e.st.Read().Search().Assets(e.ctx, query.SearchQuery{Filter: query.AssetFilter{LibraryID: libraryID},
		Terms: []query.SearchTerm{{word}}, Names: [][]query.NameMatch{nil}}, query.Page{Limit: 10})
	require.NoError(e.t, err)
	ids := []string{}
	for _, f := range found {
		ids = append(ids, f.ID)
	}
	return ids
}

// TestRegeocodeIsQueuedOncePerDataVersion: a version marked as the
// places' own (dev seed's) queues nothing; the next version queues again.
func TestRegeocodeIsQueuedOncePerDataVersion(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	path := halves(t, 64, 48)
	tag(t, path, "-GPSLatitude=48.8584", "-GPSLatitudeRef=N", "-GPSLongitude=2.2945", "-GPSLongitudeRef=E")
	a := e.upload(path, "", assets.UploadInput{})
	require.NoError(t, e.p.Metadata(e.ctx, a.ID))
	now := time.Now()
	require.NoError(t, pipeline.MarkGeocoded(e.ctx, e.st, "v1", now))
	require.NoError(t, pipeline.ScheduleRegeocodes(e.ctx, e.st, "v1", now))
	require.Empty(t, e.regeocodeTasks(a.LibraryID), "the marked version queues nothing")
	require.NoError(t, pipeline.ScheduleRegeocodes(e.ctx, e.st, "v2", now))
	require.Len(t, e.regeocodeTasks(a.LibraryID), 1, "a new version does")
}

// TestRegeocodeOfALargeLibraryGoesOnInANewTask: a run whose budget is
// spent (a clock that races on here) queues a regeocode task for the
// library and stops; the tasks that follow skip the assets done and
// finish the library.
func TestRegeocodeOfALargeLibraryGoesOnInANewTask(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	libs, err := e.st.Read().Libraries().LiveMemberships(e.ctx, e.user.User.ID)
	require.NoError(t, err)
	lib := libs[0].Library.ID
	_, err = devseed.Seed(e.ctx, e.st, devseed.Options{LibraryID: lib, Assets: 600, Seed: 1})
	require.NoError(t, err)
	var clock atomic.Int64
	clock.Store(time.Now().UnixNano())
	racing := func() time.Time { return time.Unix(0, clock.Add(int64(10*time.Second))) } // 12 calls a budget
	p, err := pipeline.New(pipeline.Deps{Store: e.st, Blobs: e.blobs, Metadata: e.pool, Renderer: e.renderer,
		Geocoder: sharedGeocoder(), Embedded: e.pool, Now: racing})
	require.NoError(t, err)
	var run tasks.Handler
	for _, k := range p.Kinds() {
		if k.Name == pipeline.KindRegeocode {
			run = k.Run
		}
	}
	rewritten := func() int { return len(e.updates(lib)) }

	task := &catalog.Task{Kind: pipeline.KindRegeocode, LibraryID: lib}
	require.NoError(t, run(e.ctx, task))
	require.Len(t, e.regeocodeTasks(lib), 1, "the budget was spent: a task goes on")
	runs, done := 1, rewritten()
	for {
		require.NoError(t, run(e.ctx, task)) // the queued task, as the runner would claim it
		runs++
		if rewritten() == done {
			break // a run found every place current
		}
		done = rewritten()
		require.Less(t, runs, 50)
	}
	require.Greater(t, runs, 2, "each run does a part")
	require.Positive(t, done)
	require.NoError(t, p.RegeocodeLibrary(e.ctx, lib))
	require.Equal(t, done, rewritten(), "every place was current")
}

// updates returns the library's asset.updated events.
func (e *env) updates(libraryID string) []catalog.Event {
	e.t.Helper()
	list, _, err := e.st.Read().Events().List(e.ctx, libraryID, query.Page{Limit: 10000})
	require.NoError(e.t, err)
	var out []catalog.Event
	for _, ev := range list {
		if ev.Type == "asset.updated" {
			out = append(out, ev)
		}
	}
	return out
}
