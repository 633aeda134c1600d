package pipeline_test

import (
	"context"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/pipeline"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/servertest"
	"github.com/photoctl/photoctl/server/store"
)

// TestUploadedPhotoIsNamedAfterItsTown uploads a JPEG that exiftool gave
// the GPS position of Cape Canaveral to the real server: once the ingest
// chain ran, GET /api/assets/{id} names the town (not only "Florida"), and
// a search for the town's name finds the photo. Stored again with the
// label the admin areas alone gave, the photo is named after its town once
// more by the regeocode task an administrator queues (`photoctl admin
// regeocode`), which the server's runner runs.
func TestUploadedPhotoIsNamedAfterItsTown(t *testing.T) {
	needTools(t, "exiftool", "ffmpeg", "ffprobe")
	s := servertest.Start(t, servertest.WithPipeline)
	_, session := s.Session()
	path := halves(t, 64, 48)
	tag(t, path, "-GPSLatitude=28.39", "-GPSLatitudeRef=N", "-GPSLongitude=80.60", "-GPSLongitudeRef=W")
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	a := s.UploadAsset(session, "launch.jpg", data, nil)
	for _, task := range s.WaitForTasks(session, a.ID, chainTimeout) {
		require.Contains(t, []string{"succeeded", "skipped"}, task.State, "%s: %v", task.Kind, task.Error)
	}

	var got api.Asset
	r := s.Do("GET", "/api/assets/"+a.ID, session, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	r.JSON(t, &got)
	m := got.Metadata
	require.Equal(t, "Cape Canaveral", deref(m.City))
	require.Equal(t, "Cape Canaveral", deref(m.PlaceName))
	require.Equal(t, "Cape Canaveral, United States of America", deref(m.DisplayLabel))
	require.Equal(t, "Florida", deref(m.State))
	require.Equal(t, "US", deref(m.CountryCode))

	require.Equal(t, []string{a.ID}, s.SearchIDs(session, "Canaveral"))

	// The place an older geocoder stored: the admin areas alone.
	st, err := app.OpenStore(context.Background(), s.Config)
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	require.NoError(t, st.InTx(context.Background(), func(r store.Repos) error {
		stored, err := r.Assets().Get(context.Background(), a.ID)
		if err != nil {
			return err
		}
		stored.GeoMeta = catalog.Metadata{Country: ptr("United States of America"), CountryCode: ptr("US"),
			State: ptr("Florida"), PlaceName: ptr("Florida"), DisplayLabel: ptr("Florida, United States of America")}
		return r.Assets().Update(context.Background(), stored)
	}))
	s.Do("GET", "/api/assets/"+a.ID, session, nil).JSON(t, &got)
	require.Equal(t, "Florida, United States of America", deref(got.Metadata.DisplayLabel))

	// What `photoctl admin regeocode` does; the server's runner runs it.
	n, err := app.Regeocode(context.Background(), s.Config)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	deadline := time.Now().Add(chainTimeout)
	for {
		s.Do("GET", "/api/assets/"+a.ID, session, nil).JSON(t, &got)
		if deref(got.Metadata.City) == "Cape Canaveral" || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	require.Equal(t, "Cape Canaveral, United States of America", deref(got.Metadata.DisplayLabel))
	require.Equal(t, []string{a.ID}, s.SearchIDs(session, "Canaveral"))
}

// TestServeRegeocodesOnceWhenThePlaceDataIsNew starts a server on a
// library written before this place data (no version of it recorded), with
// a photo whose stored place is the admin areas' alone: the server queues
// the regeocode task at start and its runner names the town; a restart
// queues nothing more.
func TestServeRegeocodesOnceWhenThePlaceDataIsNew(t *testing.T) {
	needTools(t, "exiftool", "ffmpeg", "ffprobe")
	ctx := context.Background()
	cfg := servertest.StoreConfig(t)
	u, err := app.CreateUser(ctx, cfg, app.NewUser{Email: "old@example.com", Password: "correct horse battery"})
	require.NoError(t, err)
	st := servertest.OpenStore(t, cfg)
	libs, err := st.Read().Libraries().LiveMemberships(ctx, u.ID)
	require.NoError(t, err)
	now := time.Now().UTC()
	a := &catalog.Asset{ID: catalog.NewID(catalog.PrefixAsset, now), LibraryID: libs[0].Library.ID, ContributorID: u.ID,
		MediaType: catalog.MediaImage, MIMEType: "image/jpeg", OriginalFileName: "launch.jpg",
		FileCreatedAt: now, FileModifiedAt: now, Capture: catalog.CaptureTime{Wall: now},
		Checksum: []byte("an old upload"), OriginalSize: 1, FileSizeBytes: 1, Metrics: map[string]any{}, CreatedAt: now, UpdatedAt: now}
	a.FileMeta.Latitude, a.FileMeta.Longitude = ptr(28.39), ptr(-80.60)
	a.GeoMeta = catalog.Metadata{Country: ptr("United States of America"), CountryCode: ptr("US"),
		State: ptr("Florida"), PlaceName: ptr("Florida"), DisplayLabel: ptr("Florida, United States of America")}
	require.NoError(t, st.InTx(ctx, func(r store.Repos) error { return r.Assets().Create(ctx, a) }))

	sameStore := func(c *app.Config) { c.DataDir, c.Database = cfg.DataDir, cfg.Database }
	s := servertest.Start(t, servertest.WithPipeline, sameStore)
	deadline := time.Now().Add(chainTimeout)
	var got *catalog.Asset
	for {
		got, err = st.Read().Assets().Get(ctx, a.ID)
		require.NoError(t, err)
		if deref(got.Merged().City) != "" || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	require.Equal(t, "Cape Canaveral, United States of America", deref(got.Merged().DisplayLabel))
	require.NoError(t, s.App().Shutdown(ctx))

	servertest.Start(t, sameStore) // a restart with the same data
	list, _, err := st.Read().Tasks().List(ctx, query.TaskFilter{LibraryID: a.LibraryID, Kind: pipeline.KindRegeocode}, query.Page{Limit: 10})
	require.NoError(t, err)
	require.Len(t, list, 1, "queued once, at the first start")
	require.Equal(t, catalog.TaskSucceeded, list[0].State)
}
