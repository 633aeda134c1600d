package tui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

func TestDetailsShowTheAlbumsAndPeopleFetchedForTheSelectedAssetOnly(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	older := w.seed("older.jpg", "2024-05-01T10:00:00", 1)
	newer := w.seed("newer.jpg", "2024-05-02T10:00:00", 2)
	album, _, err := w.c.CreateAlbum(ctx, w.lib, "Harbour days")
	require.NoError(t, err)
	_, err = w.c.AddAlbumAssets(ctx, album.ID, []string{newer.ID})
	require.NoError(t, err)
	ada, _, err := w.c.CreatePerson(ctx, api.PersonCreateRequest{Name: "Ada", LibraryID: &w.lib})
	require.NoError(t, err)
	box := func(f float64) *float64 { return &f }
	_, err = w.c.CreateFace(ctx, api.FaceCreateRequest{AssetID: newer.ID, PersonID: &ada.ID,
		BoundingBox: &api.BoundingBoxInput{X: box(0.1), Y: box(0.1), Width: box(0.3), Height: box(0.3)}})
	require.NoError(t, err)
	// A second library: the server then wants library_id on every list.
	w.s.Do("POST", "/api/libraries", w.session, map[string]string{"name": "Elsewhere"}).JSON(t, &api.Library{})

	d := w.open(Options{LibraryID: w.lib})
	d.openMonth("May 2024")
	require.Contains(t, d.currentLine(), "newer.jpg")
	screen := d.view()
	require.Regexp(t, `Albums\s+Harbour days`, screen)
	require.Regexp(t, `People\s+Ada`, screen)
	require.Equal(t, 1, w.calls.count("GET /api/albums"), "only the asset under the cursor")
	require.Equal(t, 1, w.calls.count("GET /api/people"))

	d.keys("j")
	require.Contains(t, d.currentLine(), "older.jpg")
	require.NotContains(t, d.view(), "Harbour days")
	require.NotContains(t, d.view(), "Ada")
	d.keys("k", "j") // known: not fetched again
	require.Equal(t, 2, w.calls.count("GET /api/albums"))
	require.Equal(t, 2, w.calls.count("GET /api/people"))

	d.keys("a", "j", "enter") // into Harbour days: the pane says so at once
	require.Contains(t, d.view(), "Added 1 asset(s) to Harbour days.")
	require.Regexp(t, `Albums\s+Harbour days`, d.view())
	_ = older
}

func TestDetailLinesNamePlaceAndCameraAndLeaveOutHashes(t *testing.T) {
	s := func(v string) *string { return &v }
	a := api.Asset{OriginalFileName: "a.jpg", Metrics: map[string]any{
		"phash": "d3e1c0ffee", "colors": strings.Repeat("0", 64), "quality": 0.8123}}
	a.Metadata.Make, a.Metadata.Model = s("Canon"), s("Canon EOS R5")
	a.Metadata.City, a.Metadata.State, a.Metadata.Country = s("Porto"), s("Porto"), s("Portugal")
	got := map[string]string{}
	sign := "HARBOUR CAFE\nOpen daily 1987"
	for _, kv := range detailLines(a, &assetInfo{albums: []string{"Trips", "Best"}, people: []string{"Ada", "Bo"}, text: &sign}) {
		got[kv[0]] = kv[1]
	}
	require.Equal(t, "Canon EOS R5", got["Camera"])
	require.Equal(t, "Porto, Portugal", got["Place"], "city, region, country, each once")
	require.Equal(t, "Trips, Best", got["Albums"])
	require.Equal(t, "Ada, Bo", got["People"])
	require.Equal(t, "HARBOUR CAFE · Open daily 1987", got["Text"], "the text OCR read, its lines on one line")
	require.Equal(t, "0.8123", got["quality"])
	require.NotContains(t, got, "phash")
	require.NotContains(t, got, "colors")

	a.Metadata.Make = s("Google")
	a.Metadata.Model = s("Pixel 8")
	require.Contains(t, detailLines(a, nil), [2]string{"Camera", "Google Pixel 8"})
}

func TestOpenWithoutAViewerShowsTheOriginalsURL(t *testing.T) {
	w := newWorld(t)
	a := w.seed("a.jpg", "2024-05-01T10:00:00", 1)
	d := w.open(Options{Open: func(string) error { return fmt.Errorf("open: %w", ErrNoViewer) }, TempDir: t.TempDir()})
	d.openMonth("May 2024")
	d.keys("o")
	require.False(t, d.m.failed, d.m.status)
	require.Equal(t, "No viewer installed; the original: "+w.s.URL+"/api/assets/"+a.ID+"/original", d.m.status)

	t.Setenv("PATH", t.TempDir()) // no xdg-open, sensible-browser or open
	require.True(t, errors.Is(SystemOpen("a.jpg"), ErrNoViewer))
}

func TestTaskCountsAgreeWithTheTaskListOfEveryLibrary(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	for i := range 3 {
		w.seed(fmt.Sprintf("a%d.jpg", i), "2024-05-01T10:00:00", i)
	}
	var second api.Library
	w.s.Do("POST", "/api/libraries", w.session, map[string]string{"name": "Second"}).JSON(t, &second)
	w.s.UploadAsset(w.session, "b.jpg", servertest.JPEG(t, 32, 24, 7), map[string]string{"library_id": second.ID,
		"file_created_at": "2024-05-01T10:00:00Z", "file_modified_at": "2024-05-01T10:00:00Z"})

	d := w.open(Options{PageSize: 2}) // fewer than the tasks: the counts are not the page's
	d.keys("6")
	want := map[string]int{}
	for _, state := range taskStates {
		// What `photoctl tasks list --state STATE --all` lists without a library.
		tasks, err := client.Collect(w.c.Tasks(ctx, client.TaskQuery{State: state}, 0))
		require.NoError(t, err)
		want[state] = len(tasks)
	}
	require.GreaterOrEqual(t, want[client.TaskQueued]+want[client.TaskSucceeded]+want[client.TaskRunning], 4)
	require.Contains(t, d.view(), fmt.Sprintf("Tasks of all your libraries: %d queued, %d running, %d failed, %d done",
		want[client.TaskQueued], want[client.TaskRunning], want[client.TaskFailed], want[client.TaskSucceeded]))
}
