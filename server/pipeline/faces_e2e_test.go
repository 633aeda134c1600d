package pipeline_test

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
	"github.com/photoctl/photoctl/server/store"
)

// sample1Faces are the centres of the three faces of face-api-sample1.jpg
// (fractions of the image, checked by eye; ml/internal/mltest).
var sample1Faces = [][2]float64{{0.26, 0.37}, {0.49, 0.42}, {0.82, 0.26}}

// copyPhoto copies a test photo into a temporary file the test may tag.
func copyPhoto(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(photo(t, name))
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(path, data, 0o600))
	return path
}

// TestGroupPhotoFacesAreFoundStoredAndDescribed follows a group photo
// taken in Paris one evening through the whole chain on the real server
// with the real models: its three faces are stored with boxes, confidences
// and embeddings, and the built-in description names what was found.
func TestGroupPhotoFacesAreFoundStoredAndDescribed(t *testing.T) {
	needTools(t, "exiftool", "ffmpeg", "ffprobe")
	s := servertest.Start(t, withML(t))
	_, session := s.Session()
	path := copyPhoto(t, "face-api-sample1.jpg")
	tag(t, path, "-DateTimeOriginal=2024:05:01 19:30:00", "-OffsetTimeOriginal=+02:00",
		"-GPSLatitude=48.8584", "-GPSLatitudeRef=N", "-GPSLongitude=2.2945", "-GPSLongitudeRef=E")
	a := s.UploadAsset(session, "group.jpg", readFile(t, path), nil)

	state, errs := states(s.WaitForTasks(session, a.ID, chainTimeout))
	for _, kind := range []string{"faces", "cluster", "ocr", "describe"} {
		require.Equal(t, "succeeded", state[kind], kind)
		require.Empty(t, errs[kind], kind)
	}

	list := servertest.List[api.Face](s, session, "/api/faces?asset_id="+a.ID)
	require.Len(t, list, len(sample1Faces), "%+v", list)
	for _, c := range sample1Faces {
		n := 0
		for _, f := range list {
			b := f.BoundingBox
			if c[0] >= b.X && c[0] <= b.X+b.Width && c[1] >= b.Y && c[1] <= b.Y+b.Height {
				n++
			}
		}
		require.Equal(t, 1, n, "the face at %v is in exactly one box", c)
	}
	st := serverStore(t, s)
	for _, f := range list {
		require.Equal(t, "machine", f.Source)
		require.GreaterOrEqual(t, *f.Confidence, 0.8)
		require.Nil(t, f.TimestampMS)
		requireUnitEmbedding(t, embeddingOf(t, st, f))
	}

	r := s.Do("GET", "/api/assets/"+a.ID, session, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	r.JSON(t, &a)
	require.NotNil(t, a.Description)
	d := *a.Description
	t.Logf("description: %s", d)
	for _, want := range []string{"three people", "taken in the evening in Paris, France", "landscape-format"} {
		require.Contains(t, d, want)
	}
	require.Nil(t, a.Metadata.Description, "the camera's and the user's description are another field")
	rec, err := st.Read().AssetTexts().Get(t.Context(), a.ID)
	require.NoError(t, err)
	require.Equal(t, "builtin", deref(rec.Describer))
	require.Equal(t, "", deref(rec.OCRText), "no text in this photo")

	events := assetEvents(t, s, session, a.LibraryID)
	require.Len(t, events["face.created"], len(sample1Faces))
	require.Contains(t, events["asset.updated"], `{"fields":["description"],"step":"describe"}`)

	// A user's edit of metadata.description leaves the describer's alone.
	r = s.Do("PATCH", "/api/assets/"+a.ID, session, map[string]any{"description": "Mum's birthday"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	r.JSON(t, &a)
	require.Equal(t, d, *a.Description)
	require.Equal(t, "Mum's birthday", *a.Metadata.Description)
}

// TestVideoFacesComeFromItsPosterFrame makes a video of a group photo:
// the faces step reads the poster frame.
func TestVideoFacesComeFromItsPosterFrame(t *testing.T) {
	servertest.SkipStoreNeutralOnPostgres(t, "faces in a video's poster")
	needTools(t, "exiftool", "ffmpeg", "ffprobe")
	s := servertest.Start(t, withML(t))
	_, session := s.Session()
	clip := filepath.Join(t.TempDir(), "group.mp4")
	run(t, "ffmpeg", "-hide_banner", "-v", "error", "-loop", "1", "-i", photo(t, "face-api-sample1.jpg"), "-t", "2",
		"-r", "5", "-vf", "scale=960:-2", "-c:v", "libx264", "-pix_fmt", "yuv420p", clip)
	a := s.UploadAsset(session, "group.mp4", readFile(t, clip), nil)
	state, errs := states(s.WaitForTasks(session, a.ID, chainTimeout))
	require.Equal(t, "succeeded", state["faces"], errs["faces"])
	require.Empty(t, errs["faces"])
	list := servertest.List[api.Face](s, session, "/api/faces?asset_id="+a.ID)
	require.Len(t, list, len(sample1Faces), "%+v", list)

	r := s.Do("GET", "/api/assets/"+a.ID, session, nil)
	r.JSON(t, &a)
	require.True(t, strings.HasPrefix(deref(a.Description), "A landscape-format video of three people"), deref(a.Description))
}

// embeddingOf reads a face's stored embedding (the API never shows it)
// through the clustering's reads: a placed face's person, or the asset's
// unplaced faces.
func embeddingOf(t *testing.T, st store.Store, f api.Face) []byte {
	t.Helper()
	var list []store.ClusterFace
	var err error
	if f.PersonID != nil {
		list, err = st.Read().Clustering().PersonFaces(t.Context(), *f.PersonID)
	} else {
		list, err = st.Read().Clustering().PendingFaces(t.Context(), f.AssetID)
	}
	require.NoError(t, err)
	for _, c := range list {
		if c.ID == f.ID {
			return c.Embedding
		}
	}
	t.Fatalf("face %s has no embedding", f.ID)
	return nil
}

// requireUnitEmbedding requires 512 little-endian float32 of unit length.
func requireUnitEmbedding(t *testing.T, b []byte) {
	t.Helper()
	require.Len(t, b, 512*4)
	var sum float64
	for i := 0; i < len(b); i += 4 {
		v := float64(math.Float32frombits(binary.LittleEndian.Uint32(b[i:])))
		sum += v * v
	}
	require.InDelta(t, 1, math.Sqrt(sum), 1e-3)
}

// assetEvents reads the library's event feed: the data of each event,
// by type.
func assetEvents(t *testing.T, s *servertest.Server, token, libraryID string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, e := range servertest.List[api.Event](s, token, "/api/events?limit=200&library_id="+libraryID) {
		var compact map[string]any
		require.NoError(t, json.Unmarshal(e.Data, &compact))
		data, err := json.Marshal(compact)
		require.NoError(t, err)
		out[e.Type] = append(out[e.Type], string(data))
	}
	return out
}
