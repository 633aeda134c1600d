package pipeline_test

import (
	"bytes"
	"image"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

// chainTimeout bounds a hung pipeline in the end-to-end tests; a healthy
// chain ends long before.
const chainTimeout = 2 * time.Minute

// TestUploadedPhotoIsIngestedEndToEnd uploads a camera-tagged JPEG with an
// XMP sidecar to the real server and follows the task chain to its end:
// metadata, size after orientation, capture time, place and thumbnail are
// what the file says.
func TestUploadedPhotoIsIngestedEndToEnd(t *testing.T) {
	needTools(t, "exiftool", "ffmpeg", "ffprobe")
	s := servertest.Start(t, servertest.WithPipeline)
	_, session := s.Session()

	path := halves(t, 640, 480)
	tag(t, path, "-Make=FUJIFILM", "-Model=X-T5", "-Orientation#=6",
		"-DateTimeOriginal=2024:05:01 10:00:00", "-OffsetTimeOriginal=+02:00",
		"-GPSLatitude=48.8584", "-GPSLatitudeRef=N", "-GPSLongitude=2.2945", "-GPSLongitudeRef=E")
	sidecar := []byte(`<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="4"/></rdf:RDF></x:xmpmeta>`)
	r := s.UploadWithSidecar(session, "DSCF0001.JPG", readFile(t, path), sidecar)
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	var a api.Asset
	r.JSON(t, &a)

	done := s.WaitForTasks(session, a.ID, chainTimeout)
	kinds := map[string]string{}
	for _, task := range done {
		kinds[task.Kind] = task.State
		if _, own := withoutLaterKinds(map[string]string{task.Kind: ""})[task.Kind]; own {
			require.Nil(t, task.Error, "%s: %v", task.Kind, task.Error) // the ML steps may be skipped
		}
	}
	require.Equal(t, map[string]string{"metadata": "succeeded", "variants": "succeeded", "geocode": "succeeded"},
		withoutLaterKinds(kinds), "variants measures the metrics: no metrics task")

	r = s.Do("GET", "/api/assets/"+a.ID, session, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	r.JSON(t, &a)
	m := a.Metadata
	require.Equal(t, "FUJIFILM", deref(m.Make))
	require.Equal(t, "X-T5", deref(m.Model))
	require.Equal(t, 6.0, deref(m.Orientation))
	require.Equal(t, 4.0, deref(m.Rating), "from the sidecar")
	require.Equal(t, "2024-05-01T10:00:00+02:00", a.LocalDatetime)
	require.Equal(t, "Paris", deref(m.City))
	require.Equal(t, "FR", deref(m.CountryCode))
	require.Equal(t, "Paris, France", deref(m.DisplayLabel))
	require.Equal(t, "Europe/Paris", deref(m.Timezone))
	require.Equal(t, 480, deref(a.Width))
	require.Equal(t, 640, deref(a.Height))
	require.Contains(t, a.Metrics, "quality")
	require.NotNil(t, a.AssetURLs.Thumbnail)

	r = s.Do("GET", *a.AssetURLs.Thumbnail, session, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	require.Equal(t, "image/webp", r.Header.Get("Content-Type"))
	img, _, err := image.Decode(bytes.NewReader(r.Body))
	require.NoError(t, err)
	require.Equal(t, [2]int{188, 250}, size(img))
	require.True(t, reddish(pixel(img, 94, 10)), "upright: the stored left half is on top")

	// Deleting the asset removes every file the pipeline wrote.
	r = s.Do("DELETE", "/api/assets", session, map[string]any{"ids": []string{a.ID}})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	for _, dir := range []string{"originals", "variants", "sidecars"} {
		entries, _ := os.ReadDir(filepath.Join(s.Config.DataDir, "blobs", dir))
		require.Empty(t, entries, "blobs/%s after the deletion", dir)
	}
}

// TestUploadedVideoKeepsOnlyItsOriginal follows a video through the chain:
// its facts come from ffprobe and exiftool, and it has no image variants.
func TestUploadedVideoKeepsOnlyItsOriginal(t *testing.T) {
	servertest.SkipStoreNeutralOnPostgres(t, "a video's renderings")
	needTools(t, "exiftool", "ffmpeg", "ffprobe")
	s := servertest.Start(t, servertest.WithPipeline)
	_, session := s.Session()
	path := makeVideo(t, "clip.mp4", "320x240", "30", "1", "-c:v", "libx264", "-pix_fmt", "yuv420p",
		"-metadata", "creation_time=2024-05-01T08:00:00Z", "-metadata", "location=+35.6586+139.7454/",
		"-movflags", "use_metadata_tags")
	tag(t, path, "-Rotation=90")
	a := s.UploadAsset(session, "clip.mp4", readFile(t, path), nil)
	for _, task := range s.WaitForTasks(session, a.ID, chainTimeout) {
		require.Equal(t, "succeeded", task.State, "%s: %v", task.Kind, task.Error)
	}
	r := s.Do("GET", "/api/assets/"+a.ID, session, nil)
	r.JSON(t, &a)
	require.Equal(t, "video", a.MediaType)
	require.Equal(t, [2]int{240, 320}, [2]int{deref(a.Width), deref(a.Height)})
	require.Equal(t, 30.0, deref(a.Metadata.FPS))
	require.Equal(t, "2024-05-01T17:00:00+09:00", a.LocalDatetime)
	require.Equal(t, "Tokyo, Japan", deref(a.Metadata.DisplayLabel))
	require.Nil(t, a.AssetURLs.Thumbnail)
	require.Nil(t, a.AssetURLs.Preview)
	require.Equal(t, http.StatusNotFound, s.Do("GET", "/api/assets/"+a.ID+"/variants/thumbnail", session, nil).Status)
}

// withoutLaterKinds keeps the ingest kinds (burst detection and the ML
// steps follow them).
func withoutLaterKinds(kinds map[string]string) map[string]string {
	out := map[string]string{}
	for _, k := range []string{"metadata", "variants", "geocode", "metrics"} {
		if v, ok := kinds[k]; ok {
			out[k] = v
		}
	}
	return out
}

func deref[T any](p *T) (v T) {
	if p != nil {
		v = *p
	}
	return v
}
