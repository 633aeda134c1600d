package pipeline_test

import (
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/assets"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/pipeline"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/servertest"
	"github.com/photoctl/photoctl/server/store"
)

// burstTags are the exiftool arguments of a shot by camera model, ms
// milliseconds after burstStart (Paris time).
func burstTags(model string, ms int) []string {
	at := burstStart.Add(time.Duration(ms) * time.Millisecond)
	return []string{"-Make=Canon", "-Model=" + model, "-DateTimeOriginal=" + at.Format("2006:01:02 15:04:05"),
		"-SubSecTimeOriginal=" + at.Format(".000")[1:], "-OffsetTimeOriginal=+02:00"}
}

// ingestShots uploads and ingests shots (metadata to metrics, as the chain
// runs them before burst detection) and returns their ids.
func (e *env) ingestShots(paths []string, in ...assets.UploadInput) []string {
	e.t.Helper()
	var ids []string
	for i, path := range paths {
		var input assets.UploadInput
		if i < len(in) {
			input = in[i]
		}
		ids = append(ids, e.ingest(e.upload(path, "", input).ID).ID)
	}
	return ids
}

// ingestBurst ingests a burst of n frames of the portrait by one camera,
// gapMs milliseconds apart, and returns their ids.
func (e *env) ingestBurst(sh *shots, n, gapMs int) []string {
	e.t.Helper()
	var paths []string
	for i := range n {
		paths = append(paths, sh.file(sh.portrait, burstFrame(i), burstTags("EOS 5D Mark II", gapMs*i)...))
	}
	return e.ingestShots(paths)
}

// burstEvents counts the asset.updated events burst detection wrote for
// asset id.
func (e *env) burstEvents(id string) int {
	e.t.Helper()
	n := 0
	for _, data := range e.events(e.get(id), "asset.updated") {
		if data["step"] == "burst" {
			require.Equal(e.t, []any{"metadata"}, data["fields"])
			n++
		}
	}
	return n
}

// libraryEvents counts the events of the library of asset id.
func (e *env) libraryEvents(id string) int {
	e.t.Helper()
	list, _, err := e.st.Read().Events().List(e.ctx, e.get(id).LibraryID, query.Page{Limit: 1000})
	require.NoError(e.t, err)
	return len(list)
}

func TestBurstDetectionIsIdempotent(t *testing.T) {
	t.Parallel()
	servertest.SkipStoreNeutralOnPostgres(t, "the burst detector's rules (TestABurstFromOneCameraBecomesOneAutomaticStack runs its store path on both)")
	e := newEnv(t)
	sh := newShots(t)
	ids := e.ingestBurst(sh, 3, 300)
	for _, id := range ids {
		require.NoError(t, e.p.Burst(e.ctx, id))
	}
	a := e.get(ids[0])
	require.NotNil(t, a.StackID)
	st, err := e.st.Read().Stacks().Get(e.ctx, *a.StackID)
	require.NoError(t, err)
	require.Equal(t, catalog.StackAuto, st.Source)
	require.Equal(t, ids, st.AssetIDs)
	for _, id := range ids {
		require.Equal(t, 1, e.burstEvents(id), "auto_stack_id changed once")
	}

	events := e.libraryEvents(ids[0])
	for _, id := range slices.Backward(ids) {
		require.NoError(t, e.p.Burst(e.ctx, id))
	}
	require.Equal(t, events, e.libraryEvents(ids[0]), "a re-run writes nothing")
	again, err := e.st.Read().Stacks().Get(e.ctx, st.ID)
	require.NoError(t, err)
	require.Equal(t, st, again)
}

func TestShotsWithoutACommonDeviceAreNoBurst(t *testing.T) {
	t.Parallel()
	servertest.SkipStoreNeutralOnPostgres(t, "which EXIF evidence makes a burst")
	e := newEnv(t)
	sh := newShots(t)
	at := burstTags("EOS 5D Mark II", 0)[2:] // a capture time, no camera
	ids := e.ingestShots([]string{
		sh.file(sh.portrait, burstFrame(0), at...),
		sh.file(sh.portrait, burstFrame(1), at...),
		// The same camera model, but uploaded from two devices.
		sh.file(sh.portrait, burstFrame(2), burstTags("EOS 5D Mark II", 100)...),
		sh.file(sh.portrait, burstFrame(3), burstTags("EOS 5D Mark II", 200)...),
	}, assets.UploadInput{}, assets.UploadInput{}, assets.UploadInput{DeviceID: "laptop"},
		assets.UploadInput{DeviceID: "phone"})
	for _, id := range ids {
		require.NoError(t, e.p.Burst(e.ctx, id))
	}
	for _, id := range ids {
		require.Nil(t, e.get(id).StackID, id)
	}
}

func TestAShotInAUsersStackIsNeverStacked(t *testing.T) {
	t.Parallel()
	servertest.SkipStoreNeutralOnPostgres(t, "the burst detector's rules (TestABurstFromOneCameraBecomesOneAutomaticStack runs its store path on both)")
	e := newEnv(t)
	sh := newShots(t)
	ids := e.ingestBurst(sh, 3, 300)
	now := time.Now().UTC()
	manual := &catalog.Stack{ID: catalog.NewID(catalog.PrefixStack, now), LibraryID: e.get(ids[0]).LibraryID,
		CoverAssetID: ids[1], AssetIDs: ids[:2], Source: catalog.StackManual, CreatedAt: now, UpdatedAt: now}
	require.NoError(t, e.st.InTx(e.ctx, func(r store.Repos) error { return r.Stacks().Create(e.ctx, manual) }))
	events := e.libraryEvents(ids[0])
	for _, id := range ids {
		require.NoError(t, e.p.Burst(e.ctx, id))
	}
	require.Equal(t, events, e.libraryEvents(ids[0]), "nothing written")
	require.Nil(t, e.get(ids[2]).StackID, "its burst is in the user's stack")
	got, err := e.st.Read().Stacks().Get(e.ctx, manual.ID)
	require.NoError(t, err)
	require.Equal(t, ids[:2], got.AssetIDs)
	require.Equal(t, catalog.StackManual, got.Source)
}

func TestBurstSettingsAreChecked(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, bad := range []pipeline.BurstConfig{{Gap: -time.Second}, {MaxDistance: -1}, {MaxDistance: 65}} {
		_, err := pipeline.New(pipeline.Deps{Store: e.st, Blobs: e.blobs, Metadata: e.pool, Renderer: e.renderer,
			Geocoder: sharedGeocoder(), Burst: bad})
		require.ErrorContains(t, err, "burst", "%+v", bad)
	}
	_, err := pipeline.New(pipeline.Deps{Store: e.st, Blobs: e.blobs, Metadata: e.pool, Renderer: e.renderer,
		Geocoder: sharedGeocoder(), Burst: pipeline.BurstConfig{Gap: 2 * time.Second, MaxDistance: 64}})
	require.NoError(t, err)
}
