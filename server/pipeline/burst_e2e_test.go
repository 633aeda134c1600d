package pipeline_test

import (
	"fmt"
	"image"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

// burstStart is when the test bursts begin: 1 May 2024, 10:00:00 in
// Paris (+02:00).
var burstStart = time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)

// shots makes burst shots as camera files: frames of real photos, tagged
// by exiftool with a camera and a capture time to the millisecond.
type shots struct {
	t        *testing.T
	dir      string
	portrait *image.NRGBA // the burst's subject
	scene    *image.NRGBA // a different-looking picture
	n        int
}

func newShots(t *testing.T) *shots {
	needTools(t, "exiftool")
	return &shots{t: t, dir: t.TempDir(), portrait: loadPhoto(t, govips(t, "jpg-24bit-rgb-no-icc.jpg")),
		scene: loadPhoto(t, govips(t, "jpg-24bit-icc-iec.jpg"))}
}

// take writes frame fr of photo as shot by a Canon of model, after
// burstStart, and returns the file's bytes.
func (s *shots) take(photo *image.NRGBA, fr frame, model string, after time.Duration) []byte {
	s.t.Helper()
	s.n++
	path := writeFrame(s.t, s.dir, fmt.Sprintf("IMG_%04d.JPG", s.n), photo, fr)
	at := burstStart.Add(after)
	tag(s.t, path, "-Make=Canon", "-Model="+model, "-DateTimeOriginal="+at.Format("2006:01:02 15:04:05"),
		fmt.Sprintf("-SubSecTimeOriginal=%03d", at.Nanosecond()/1e6), "-OffsetTimeOriginal=+02:00")
	return readFile(s.t, path)
}

// burstFrame is the i-th frame of a burst: the camera drifts by half a
// per cent a frame and the exposure breathes, as in a hand-held burst.
func burstFrame(i int) frame {
	return frame{dx: 0.02 + 0.005*float64(i%5), dy: 0.03, gain: 1 + 0.02*float64(i%3)}
}

// burstServer is a server running the pipeline, with a session.
type burstServer struct {
	*servertest.Server
	session string
}

func newBurstServer(t *testing.T) *burstServer {
	needTools(t, "exiftool", "ffmpeg", "ffprobe")
	s := servertest.Start(t, servertest.WithPipeline)
	_, session := s.Session()
	return &burstServer{Server: s, session: session}
}

// upload uploads files and waits until every task of each has ended;
// the steps up to burst detection must have succeeded. It returns the
// assets' ids in order.
func (s *burstServer) upload(files ...[]byte) []string {
	s.T.Helper()
	var ids []string
	for i, data := range files {
		ids = append(ids, s.UploadAsset(s.session, fmt.Sprintf("shot%d.jpg", i), data, nil).ID)
	}
	for _, id := range ids {
		states := map[string]string{}
		for _, task := range s.WaitForTasks(s.session, id, chainTimeout) {
			states[task.Kind] = task.State
			if task.Kind == "burst" {
				require.Nil(s.T, task.Error, "burst of %s", id)
			}
		}
		for _, kind := range []string{"metadata", "variants", "burst"} {
			require.Equal(s.T, "succeeded", states[kind], "%s of %s", kind, id)
		}
	}
	return ids
}

func (s *burstServer) stacks() []api.Stack {
	s.T.Helper()
	return servertest.List[api.Stack](s.Server, s.session, "/api/stacks?limit=200")
}

// autoStacks returns the automatic stacks, each with its members sorted.
func (s *burstServer) autoStacks() []api.Stack {
	s.T.Helper()
	var out []api.Stack
	for _, st := range s.stacks() {
		if st.Source == "auto" {
			slices.Sort(st.AssetIDs)
			out = append(out, st)
		}
	}
	return out
}

func (s *burstServer) asset(id string) api.Asset {
	s.T.Helper()
	r := s.Do("GET", "/api/assets/"+id, s.session, nil)
	require.Equal(s.T, http.StatusOK, r.Status, "%s", r.Body)
	var a api.Asset
	r.JSON(s.T, &a)
	return a
}

func sorted(ids ...string) []string {
	out := slices.Clone(ids)
	slices.Sort(out)
	return out
}

func TestABurstFromOneCameraBecomesOneAutomaticStack(t *testing.T) {
	t.Parallel()
	sh := newShots(t)
	s := newBurstServer(t)
	blurred := steady
	blurred.blur = 4
	ids := s.upload(
		sh.take(sh.portrait, steady, "EOS 5D Mark II", 0),
		sh.take(sh.portrait, frame{dx: 0.035, dy: 0.03, gain: 1}, "EOS 5D Mark II", 300*time.Millisecond),
		sh.take(sh.portrait, frame{dx: 0.03, dy: 0.03, gain: 1.05}, "EOS 5D Mark II", 600*time.Millisecond),
		sh.take(sh.portrait, blurred, "EOS 5D Mark II", 900*time.Millisecond),
		sh.take(sh.scene, steady, "EOS 5D Mark II", 450*time.Millisecond),                           // different-looking
		sh.take(sh.portrait, frame{dx: 0.03, dy: 0.03, gain: 1.02}, "EOS R5", 150*time.Millisecond), // another camera
	)
	burst, different, otherCamera := ids[:4], ids[4], ids[5]

	autos := s.autoStacks()
	require.Len(t, autos, 1, "%+v", autos)
	st := autos[0]
	require.Equal(t, sorted(burst...), st.AssetIDs)
	require.Equal(t, 4, st.AssetCount)

	quality := map[string]float64{}
	for _, id := range burst {
		a := s.asset(id)
		require.Equal(t, st.ID, deref(a.Metadata.AutoStackID), "metadata.auto_stack_id of %s", id)
		quality[id] = a.Metrics["quality"].(float64)
	}
	best := burst[0] // the highest quality, the earliest on a tie
	for _, id := range burst[1:] {
		if quality[id] > quality[best] {
			best = id
		}
	}
	require.Equal(t, best, st.CoverAssetID, "qualities %v", quality)
	for _, id := range burst[:3] {
		require.Less(t, quality[burst[3]], quality[id], "the blurred shot is the worst")
	}
	for _, id := range []string{different, otherCamera} {
		require.Nil(t, s.asset(id).Metadata.AutoStackID, id)
	}
}

func TestBurstsArrivingOutOfOrderAndAcrossUploadsStillGroup(t *testing.T) {
	t.Parallel()
	servertest.SkipStoreNeutralOnPostgres(t, "the burst detector's rules (TestABurstFromOneCameraBecomesOneAutomaticStack runs its store path on both)")
	sh := newShots(t)
	s := newBurstServer(t)
	const model = "EOS 5D Mark II"
	ms := time.Millisecond
	take := func(i int, after time.Duration) []byte { return sh.take(sh.portrait, burstFrame(i), model, after) }

	// The burst's last two shots first, newest first; then the others.
	late := s.upload(take(3, 900*ms), take(2, 600*ms))
	autos := s.autoStacks()
	require.Len(t, autos, 1)
	require.Equal(t, sorted(late...), autos[0].AssetIDs)
	early := s.upload(take(1, 300*ms), take(0, 0))
	autos = s.autoStacks()
	require.Len(t, autos, 1, "the second upload joins the first's stack")
	require.Equal(t, sorted(append(late, early...)...), autos[0].AssetIDs)
	first := autos[0].ID

	// Two bursts 1.5 s apart are two stacks, until a shot between them
	// links both: they merge into the older one.
	later := s.upload(take(4, 2400*ms), take(5, 2700*ms))
	require.Len(t, s.autoStacks(), 2)
	bridge := s.upload(take(6, 1650*ms))
	autos = s.autoStacks()
	require.Len(t, autos, 1, "%+v", autos)
	require.Equal(t, first, autos[0].ID)
	require.Equal(t, sorted(slices.Concat(late, early, later, bridge)...), autos[0].AssetIDs)
	for _, id := range autos[0].AssetIDs {
		require.Equal(t, first, deref(s.asset(id).Metadata.AutoStackID))
	}
}

func TestTheBurstDetectorRespectsWhatUsersDid(t *testing.T) {
	t.Parallel()
	servertest.SkipStoreNeutralOnPostgres(t, "the burst detector's rules (TestABurstFromOneCameraBecomesOneAutomaticStack runs its store path on both)")
	sh := newShots(t)
	s := newBurstServer(t)
	const model = "EOS 5D Mark II"
	ms := time.Millisecond
	take := func(i int, after time.Duration) []byte { return sh.take(sh.portrait, burstFrame(i), model, after) }

	// A user stacks a lone shot with another photo by hand; the shots of
	// its burst that arrive later stack on their own and leave it alone.
	lone := s.upload(take(0, 0), sh.take(sh.scene, steady, model, time.Hour))
	r := s.Do("POST", "/api/stacks", s.session, map[string]any{"asset_ids": lone})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	var manual api.Stack
	r.JSON(t, &manual)
	pair := s.upload(take(1, 300*ms), take(2, 600*ms))
	autos := s.autoStacks()
	require.Len(t, autos, 1)
	require.Equal(t, sorted(pair...), autos[0].AssetIDs)
	r = s.Do("GET", "/api/stacks/"+manual.ID, s.session, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var got api.Stack
	r.JSON(t, &got)
	require.Equal(t, manual, got, "the user's stack is untouched")
	require.Nil(t, s.asset(lone[0]).Metadata.AutoStackID)

	// A shot the user takes out of an automatic stack is not pulled back
	// in when the burst grows.
	r = s.Do("PATCH", "/api/stacks/"+autos[0].ID, s.session, map[string]any{"remove_asset_ids": pair[1:]})
	require.Equal(t, http.StatusNoContent, r.Status, "%s", r.Body) // one member left: dissolved
	more := s.upload(take(3, 900*ms))
	autos = s.autoStacks()
	require.Len(t, autos, 1)
	require.Equal(t, sorted(pair[0], more[0]), autos[0].AssetIDs)
	require.Nil(t, s.asset(pair[1]).Metadata.AutoStackID)
}

// file writes frame fr of photo with exiftool tags to a file, for the
// tests that run the steps directly, and returns its path.
func (s *shots) file(photo *image.NRGBA, fr frame, tags ...string) string {
	s.t.Helper()
	s.n++
	path := writeFrame(s.t, s.dir, fmt.Sprintf("DSC_%04d.JPG", s.n), photo, fr)
	if len(tags) > 0 {
		tag(s.t, path, tags...)
	}
	return path
}
