package pipeline_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/assets"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/pipeline"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/servertest"
	"github.com/photoctl/photoctl/server/stacks"
	"github.com/photoctl/photoctl/server/store"
)

// sameSecond is the upload's file time of shots without a capture tag:
// copied together, so their file times fall within one second.
var sameSecond = burstStart.Add(time.Second)

// noEXIF uploads as a client that sends one device id for every file
// (immich-go does) and file times within one second.
func noEXIF(ms int) assets.UploadInput {
	at := sameSecond.Add(time.Duration(ms) * time.Millisecond)
	return assets.UploadInput{DeviceID: "importer", FileCreatedAt: &at, FileModifiedAt: &at}
}

// stacksOf runs burst detection over ids and returns each one's stack id
// ("" when unstacked).
func (e *env) stacksOf(ids []string) []string {
	e.t.Helper()
	for _, id := range ids {
		require.NoError(e.t, e.p.Burst(e.ctx, id))
	}
	out := make([]string, len(ids))
	for i, id := range ids {
		if s := e.get(id).StackID; s != nil {
			out[i] = *s
		}
	}
	return out
}

func TestBurstsNeedCameraEvidence(t *testing.T) {
	t.Parallel()
	servertest.SkipStoreNeutralOnPostgres(t, "which EXIF evidence makes a burst")
	sh := newShots(t)
	tags := func(model string, ms int, extra ...string) []string {
		return append(burstTags(model, ms), extra...)
	}
	cases := []struct {
		name  string
		files func() ([]string, []assets.UploadInput)
		stack bool
	}{
		{"frames of one camera 0.1 s apart with sub-seconds are one burst", func() ([]string, []assets.UploadInput) {
			var paths []string
			for i := range 5 {
				paths = append(paths, sh.file(sh.portrait, burstFrame(i), tags("EOS 5D Mark II", 100*i)...))
			}
			return paths, nil
		}, true},
		{"look-alike files without EXIF from one client in one second are no burst", func() ([]string, []assets.UploadInput) {
			var paths []string
			var in []assets.UploadInput
			for i := range 4 {
				paths = append(paths, sh.file(sh.portrait, burstFrame(i)))
				in = append(in, noEXIF(100*i))
			}
			return paths, in
		}, false},
		{"a camera's make and model without a capture tag is no burst", func() ([]string, []assets.UploadInput) {
			var paths []string
			var in []assets.UploadInput
			for i := range 3 {
				paths = append(paths, sh.file(sh.portrait, burstFrame(i), "-Make=Canon", "-Model=EOS 5D Mark II"))
				in = append(in, noEXIF(100*i))
			}
			return paths, in
		}, false},
		{"a capture tag without make or model is no burst", func() ([]string, []assets.UploadInput) {
			var paths []string
			for i := range 3 {
				paths = append(paths, sh.file(sh.portrait, burstFrame(i), tags("", 100*i)[2:]...))
			}
			return paths, nil
		}, false},
		{"two cameras in the same second are no burst", func() ([]string, []assets.UploadInput) {
			return []string{
				sh.file(sh.portrait, burstFrame(0), "-Make=Canon", "-Model=EOS R5", tags("", 0)[2], tags("", 0)[3]),
				sh.file(sh.portrait, burstFrame(1), "-Make=Nikon", "-Model=D750", tags("", 0)[2], tags("", 0)[3]),
			}, nil
		}, false},
		{"two bodies of one model are told apart by their serial numbers", func() ([]string, []assets.UploadInput) {
			return []string{
				sh.file(sh.portrait, burstFrame(0), tags("EOS 5D Mark II", 0, "-SerialNumber=0123")...),
				sh.file(sh.portrait, burstFrame(1), tags("EOS 5D Mark II", 100, "-SerialNumber=4567")...),
			}, nil
		}, false},
		{"the camera's burst id keeps two bursts apart", func() ([]string, []assets.UploadInput) {
			return []string{
				sh.file(sh.portrait, burstFrame(0), tags("Pixel 8", 0, "-XMP-GCamera:BurstID=burst-a")...),
				sh.file(sh.portrait, burstFrame(1), tags("Pixel 8", 100, "-XMP-GCamera:BurstID=burst-b")...),
			}, nil
		}, false},
		{"frames sharing the camera's burst id are one burst", func() ([]string, []assets.UploadInput) {
			return []string{
				sh.file(sh.portrait, burstFrame(0), tags("Pixel 8", 0, "-XMP-GCamera:BurstID=burst-a")...),
				sh.file(sh.portrait, burstFrame(1), tags("Pixel 8", 100, "-XMP-GCamera:BurstID=burst-a")...),
			}, nil
		}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			paths, in := c.files()
			got := e.stacksOf(e.ingestShots(paths, in...))
			for _, s := range got {
				if c.stack {
					require.NotEmpty(t, s)
					require.Equal(t, got[0], s, "one stack: %v", got)
				} else {
					require.Empty(t, s, "%v", got)
				}
			}
		})
	}
}

// unrecord makes assets look as an older version read them: no capture
// source in their file layer.
func (e *env) unrecord(ids ...string) {
	e.t.Helper()
	require.NoError(e.t, e.st.InTx(e.ctx, func(r store.Repos) error {
		for _, id := range ids {
			a, err := r.Assets().Get(e.ctx, id)
			if err != nil {
				return err
			}
			a.FileMeta.CaptureSource = nil
			if err := r.Assets().Update(e.ctx, a); err != nil {
				return err
			}
		}
		return nil
	}))
}

// oldStack makes a stack as an older version did, by source.
func (e *env) oldStack(source catalog.StackSource, cover string, ids ...string) *catalog.Stack {
	e.t.Helper()
	svc := stacks.NewService(e.st, nil, time.Now)
	var st *catalog.Stack
	require.NoError(e.t, e.st.InTx(e.ctx, func(r store.Repos) error {
		var err error
		if source == catalog.StackAuto {
			st, err = svc.CreateAuto(e.ctx, r, e.get(ids[0]).LibraryID, ids, cover)
			return err
		}
		now := time.Now().UTC()
		st = &catalog.Stack{ID: catalog.NewID(catalog.PrefixStack, now), LibraryID: e.get(ids[0]).LibraryID,
			CoverAssetID: cover, AssetIDs: ids, Source: source, CreatedAt: now, UpdatedAt: now}
		return r.Stacks().Create(e.ctx, st)
	}))
	e.unrecord(ids...)
	return st
}

func TestRestackDissolvesAutomaticStacksWithoutCameraEvidence(t *testing.T) {
	t.Parallel()
	servertest.SkipStoreNeutralOnPostgres(t, "which EXIF evidence makes a burst")
	e := newEnv(t)
	sh := newShots(t)
	var loosePaths, manualPaths []string
	var looseIn, manualIn []assets.UploadInput
	for i := range 3 {
		loosePaths = append(loosePaths, sh.file(sh.scene, burstFrame(i)))
		looseIn = append(looseIn, noEXIF(100*i))
		manualPaths = append(manualPaths, sh.file(sh.scene, burstFrame(i+3)))
		manualIn = append(manualIn, noEXIF(300+100*i))
	}
	burst := e.ingestBurst(sh, 3, 200)
	loose := e.ingestShots(loosePaths, looseIn...)
	manualIDs := e.ingestShots(manualPaths, manualIn...)
	lib := e.get(burst[0]).LibraryID

	// As an older version stacked them: the real burst, the look-alikes
	// without EXIF, and a stack mixing both; and a user's stack.
	good := e.oldStack(catalog.StackAuto, burst[1], burst...)
	bad := e.oldStack(catalog.StackAuto, loose[0], loose[:2]...)
	e.oldStack(catalog.StackAuto, loose[2], loose[2], manualIDs[0])
	manual := e.oldStack(catalog.StackManual, manualIDs[1], manualIDs[1:]...)

	unsettled, err := e.st.Read().Bursts().UnsettledLibraries(e.ctx)
	require.NoError(t, err)
	require.Equal(t, []string{lib}, unsettled)
	require.NoError(t, pipeline.ScheduleRestacks(e.ctx, e.st, time.Now()))
	require.NoError(t, pipeline.ScheduleRestacks(e.ctx, e.st, time.Now()), "a second start keeps the queued task")
	queued, _, err := e.st.Read().Tasks().List(e.ctx, query.TaskFilter{LibraryID: lib, Kind: pipeline.KindRestack}, query.Page{Limit: 10})
	require.NoError(t, err)
	require.Len(t, queued, 1)

	require.NoError(t, e.p.Restack(e.ctx, lib))
	kept, err := e.st.Read().Stacks().Get(e.ctx, good.ID)
	require.NoError(t, err, "a real burst's stack stays")
	require.Equal(t, good.AssetIDs, kept.AssetIDs)
	require.Equal(t, burst[1], kept.CoverAssetID, "with its cover")
	for _, id := range append(loose, manualIDs[0]) {
		require.Nil(t, e.get(id).StackID, "%s left its automatic stack", id)
		require.Equal(t, catalog.CaptureFromFile, *e.get(id).FileMeta.CaptureSource, "%s was read again", id)
	}
	_, err = e.st.Read().Stacks().Get(e.ctx, bad.ID)
	require.ErrorIs(t, err, catalog.ErrNotFound)
	still, err := e.st.Read().Stacks().Get(e.ctx, manual.ID)
	require.NoError(t, err, "a user's stack is never touched")
	require.Equal(t, manual.AssetIDs, still.AssetIDs)

	unsettled, err = e.st.Read().Bursts().UnsettledLibraries(e.ctx)
	require.NoError(t, err)
	require.Empty(t, unsettled, "nothing to restack at the next start")
	events := e.libraryEvents(burst[0])
	require.NoError(t, e.p.Restack(e.ctx, lib))
	require.Equal(t, events, e.libraryEvents(burst[0]), "a second run writes nothing")
}

func TestRestackKeepsTheBurstInsideAMixedStack(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	sh := newShots(t)
	burst := e.ingestBurst(sh, 3, 200)
	stray := e.ingestShots([]string{sh.file(sh.portrait, burstFrame(4))}, noEXIF(0))[0]
	old := e.oldStack(catalog.StackAuto, stray, append(burst, stray)...)

	require.NoError(t, e.p.Restack(e.ctx, e.get(stray).LibraryID))
	_, err := e.st.Read().Stacks().Get(e.ctx, old.ID)
	require.ErrorIs(t, err, catalog.ErrNotFound, "the mixed stack is dissolved")
	require.Nil(t, e.get(stray).StackID)
	now := e.get(burst[0]).StackID
	require.NotNil(t, now, "its burst is stacked again")
	st, err := e.st.Read().Stacks().Get(e.ctx, *now)
	require.NoError(t, err)
	require.Equal(t, catalog.StackAuto, st.Source)
	require.ElementsMatch(t, burst, st.AssetIDs)
	require.Contains(t, burst, st.CoverAssetID)
}
