package httpapi_test

import (
	"bytes"
	"image"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	_ "golang.org/x/image/webp" // decodes face thumbnails

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

// box is a bounding box body.
func box(x, y, w, h float64) map[string]any {
	return map[string]any{"x": x, "y": y, "width": w, "height": h}
}

// face draws a face on an asset and requires a 201.
func face(t *testing.T, s *servertest.Server, token, assetID string, personID *string) api.Face {
	t.Helper()
	body := map[string]any{"asset_id": assetID, "bounding_box": box(0.25, 0.25, 0.5, 0.5)}
	if personID != nil {
		body["person_id"] = *personID
	}
	return servertest.Expect[api.Face](t, s.Do("POST", "/api/faces", token, body), http.StatusCreated)
}

func faceIDs(list []api.Face) []string {
	return mapped(list, func(f api.Face) string { return f.ID })
}

func TestManualFaces(t *testing.T) {
	s := startPeopleServer(t)
	_, session := s.Session()
	a := s.UploadAsset(session, "1.jpg", servertest.JPEG(t, 8, 8, 1), nil)
	ann := person(t, s, session, "Ann")

	t.Run("a valid box is stored as drawn, source manual, no confidence", func(t *testing.T) {
		r := s.Do("POST", "/api/faces", session, map[string]any{"asset_id": a.ID, "person_id": ann.ID,
			"bounding_box": box(0.7, 0, 0.3, 1)})
		require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
		m := r.Map(t)
		require.Equal(t, map[string]any{"x": 0.7, "y": 0.0, "width": 0.3, "height": 1.0}, m["bounding_box"])
		require.Equal(t, "manual", m["source"])
		require.Nil(t, m["confidence"])
		require.Nil(t, m["timestamp_ms"])
		require.Equal(t, ann.ID, m["person_id"])
		require.Equal(t, a.ID, m["asset_id"])
		require.Equal(t, "/api/faces/"+m["id"].(string)+"/thumbnail", m["thumbnail_url"])
		require.Equal(t, "/api/assets/"+a.ID+"/variants/preview", m["asset_urls"].(map[string]any)["preview"])
		require.Equal(t, 1, getPerson(t, s, session, ann.ID).AssetCount)
	})
	t.Run("every bad box is 422 at its field, and nothing is written", func(t *testing.T) {
		for _, c := range []struct {
			name string
			box  any
			locs [][]any
		}{
			{"missing", nil, [][]any{{"body", "bounding_box"}}},
			{"missing fields", map[string]any{"x": 0.1, "y": 0.1},
				[][]any{{"body", "bounding_box", "width"}, {"body", "bounding_box", "height"}}},
			{"negative x", box(-0.1, 0.1, 0.2, 0.2), [][]any{{"body", "bounding_box", "x"}}},
			{"y at the edge", box(0.1, 1, 0.2, 0.2), [][]any{{"body", "bounding_box", "y"}, {"body", "bounding_box", "height"}}},
			{"zero width", box(0.1, 0.1, 0, 0.2), [][]any{{"body", "bounding_box", "width"}}},
			{"negative height", box(0.1, 0.1, 0.2, -0.2), [][]any{{"body", "bounding_box", "height"}}},
			{"x2 beyond the right edge", box(0.9, 0.1, 0.2, 0.2), [][]any{{"body", "bounding_box", "width"}}},
			{"y2 beyond the bottom edge", box(0.1, 0.5, 0.2, 0.6), [][]any{{"body", "bounding_box", "height"}}},
			{"wider than the image", box(0, 0, 1.5, 0.5), [][]any{{"body", "bounding_box", "width"}}},
			{"a string", map[string]any{"x": "0.1", "y": 0.1, "width": 0.2, "height": 0.2},
				[][]any{{"body", "bounding_box", "x"}}},
			{"an unknown field", map[string]any{"x": 0.1, "y": 0.1, "width": 0.2, "height": 0.2, "x2": 0.3},
				[][]any{{"body", "bounding_box", "x2"}}},
			{"the wrong shape", []float64{0.1, 0.1, 0.2, 0.2}, [][]any{{"body", "bounding_box"}}},
		} {
			t.Run(c.name, func(t *testing.T) {
				body := map[string]any{"asset_id": a.ID}
				if c.box != nil {
					body["bounding_box"] = c.box
				}
				items := validationItems(t, s.Do("POST", "/api/faces", session, body))
				var locs [][]any
				for _, it := range items {
					locs = append(locs, it.Loc)
				}
				require.Equal(t, c.locs, locs)
			})
		}
		require.Len(t, servertest.List[api.Face](s, session, "/api/faces"), 1)
	})
	t.Run("bad references are 422 at their field", func(t *testing.T) {
		_, other := s.Session()
		stranger := person(t, s, other, "Stranger")
		for _, c := range []struct {
			body map[string]any
			loc  []any
		}{
			{map[string]any{"bounding_box": box(0.1, 0.1, 0.2, 0.2)}, []any{"body", "asset_id"}},
			{map[string]any{"asset_id": "asset_01hzzzzzzzzzzzzzzzzzzzzzzz", "bounding_box": box(0.1, 0.1, 0.2, 0.2)},
				[]any{"body", "asset_id"}},
			{map[string]any{"asset_id": a.ID, "bounding_box": box(0.1, 0.1, 0.2, 0.2), "person_id": stranger.ID},
				[]any{"body", "person_id"}},
			{map[string]any{"asset_id": a.ID, "bounding_box": box(0.1, 0.1, 0.2, 0.2), "timestamp_ms": 100},
				[]any{"body", "timestamp_ms"}},
			{map[string]any{"asset_id": a.ID, "bounding_box": box(0.1, 0.1, 0.2, 0.2), "timestamp_ms": -1},
				[]any{"body", "timestamp_ms"}},
			{map[string]any{"asset_id": a.ID, "bounding_box": box(0.1, 0.1, 0.2, 0.2), "library_id": s.Libraries(other)[0].ID},
				[]any{"body", "asset_id"}},
		} {
			items := validationItems(t, s.Do("POST", "/api/faces", session, c.body))
			require.Equal(t, c.loc, items[0].Loc, "%v", c.body)
		}
	})
	t.Run("deleting a face is 204, then 404", func(t *testing.T) {
		f := face(t, s, session, a.ID, nil)
		require.Equal(t, http.StatusNoContent, s.Do("DELETE", "/api/faces/"+f.ID, session, nil).Status)
		requireDetail(t, s.Do("DELETE", "/api/faces/"+f.ID, session, nil), http.StatusNotFound)
	})
}

func TestFaceList(t *testing.T) {
	s := startPeopleServer(t)
	_, session := s.Session()
	up := photos(t, s, session, 2)
	a1, a2 := up[0], up[1]
	ann := person(t, s, session, "Ann")
	f1 := face(t, s, session, a1.ID, &ann.ID)
	f2 := face(t, s, session, a1.ID, nil)
	f3 := face(t, s, session, a2.ID, &ann.ID)
	list := func(query string) []string {
		return faceIDs(servertest.List[api.Face](s, session, "/api/faces"+query))
	}
	require.Equal(t, []string{f3.ID, f2.ID, f1.ID}, list(""), "newest first")
	require.Equal(t, []string{f2.ID, f1.ID}, list("?asset_id="+a1.ID))
	require.Equal(t, []string{f3.ID, f1.ID}, list("?person_id="+ann.ID))
	require.Equal(t, []string{f1.ID}, list("?person_id="+ann.ID+"&asset_id="+a1.ID))
	require.Equal(t, []string{f3.ID, f1.ID}, list("?ids="+f1.ID+"&ids="+f3.ID))
	require.Equal(t, []string{f2.ID, f1.ID}, list("?limit=2&starting_after_id="+f3.ID))

	second, _ := createLibrary(t, s, session, "Second")
	items := validationItems(t, s.Do("GET", "/api/faces", session, nil))
	require.Equal(t, []any{"query", "library_id"}, items[0].Loc)
	require.Empty(t, list("?library_id="+second.ID))
	many := strings.Repeat(f1.ID+",", 100) + f1.ID
	items = validationItems(t, s.Do("GET", "/api/faces?ids="+many+"&library_id="+second.ID, session, nil))
	require.Equal(t, []any{"query", "ids"}, items[0].Loc)
	items = validationItems(t, s.Do("GET", "/api/faces?name=x&library_id="+second.ID, session, nil))
	require.Equal(t, []any{"query", "name"}, items[0].Loc)
}

func TestAssetsByPeopleAndTheirFacesAndPeople(t *testing.T) {
	s := startPeopleServer(t)
	_, session := s.Session()
	ann, bob := person(t, s, session, "Ann"), person(t, s, session, "Bob")
	onlyAnn := place(t, s, session, 1, "2024-01-01T10:00:00")
	both := place(t, s, session, 2, "2024-01-02T10:00:00")
	onlyBob := place(t, s, session, 3, "2024-01-03T10:00:00")
	nobody := place(t, s, session, 4, "2024-01-04T10:00:00")
	face(t, s, session, onlyAnn, &ann.ID)
	face(t, s, session, both, &ann.ID)
	face(t, s, session, both, &ann.ID)
	face(t, s, session, both, &bob.ID)
	face(t, s, session, both, nil)
	face(t, s, session, onlyBob, &bob.ID)

	t.Run("person_ids selects assets with all of the people", func(t *testing.T) {
		require.Equal(t, []string{both, onlyAnn}, ids(listAssets(t, s, session, "?person_ids="+ann.ID)))
		require.Equal(t, []string{both}, ids(listAssets(t, s, session, "?person_ids="+ann.ID+","+bob.ID)))
		require.Equal(t, []string{both}, ids(listAssets(t, s, session, "?person_ids="+bob.ID+"&person_ids="+ann.ID)))
		require.Equal(t, []string{onlyAnn, both}, ids(listAssets(t, s, session, "?order=asc&person_ids="+ann.ID+","+ann.ID)))
		require.Empty(t, listAssets(t, s, session, "?person_ids=person_01hzzzzzzzzzzzzzzzzzzzzzzz"))
		require.Len(t, listAssets(t, s, session, ""), 4)
		items := validationItems(t, s.Do("GET", "/api/assets?person_ids="+strings.Repeat("p,", 101), session, nil))
		require.Equal(t, []any{"query", "person_ids"}, items[0].Loc)
	})
	t.Run("an asset lists all its faces and each person once", func(t *testing.T) {
		a := getAsset(t, s, session, both)
		require.Len(t, a.Faces, 4)
		var people []string
		for _, p := range a.People {
			people = append(people, *p.Name)
		}
		require.Equal(t, []string{"Ann", "Bob"}, people)
		require.Equal(t, 2, a.People[0].AssetCount)
		require.Equal(t, both, a.Faces[0].AssetID)
		none := getAsset(t, s, session, nobody)
		require.NotNil(t, none.Faces)
		require.Empty(t, none.Faces)
		require.NotNil(t, none.People)
		require.Empty(t, none.People)
	})
	t.Run("so does every asset of a list and an edited asset", func(t *testing.T) {
		byID := map[string]api.Asset{}
		for _, a := range listAssets(t, s, session, "") {
			byID[a.ID] = a
		}
		require.Len(t, byID[both].Faces, 4)
		require.Len(t, byID[both].People, 2)
		require.Len(t, byID[onlyBob].People, 1)
		require.Empty(t, byID[nobody].Faces)
		edited := servertest.Expect[api.Asset](t, s.Do("PATCH", "/api/assets/"+onlyAnn, session, map[string]any{"rating": 4}), http.StatusOK)
		require.Len(t, edited.Faces, 1)
		require.Equal(t, ann.ID, edited.People[0].ID)
	})
}

func TestAssetTrashAndDeletionKeepPeopleRight(t *testing.T) {
	s := startPeopleServer(t)
	_, session := s.Session()
	up := photos(t, s, session, 2)
	a1, a2 := up[0], up[1]
	ann := person(t, s, session, "Ann")
	f1 := face(t, s, session, a1.ID, &ann.ID)
	f2 := face(t, s, session, a2.ID, &ann.ID)
	require.Equal(t, f1.ID, *getPerson(t, s, session, ann.ID).ThumbnailFaceID)

	body := api.AssetIDs{IDs: []string{a1.ID}}
	require.Equal(t, http.StatusOK, s.Do("POST", "/api/assets/trash", session, body).Status)
	require.Equal(t, 1, getPerson(t, s, session, ann.ID).AssetCount, "trashed assets are not counted")
	require.Equal(t, []string{a2.ID}, ids(listAssets(t, s, session, "?person_ids="+ann.ID)))
	require.Equal(t, http.StatusOK, s.Do("POST", "/api/assets/restore", session, body).Status)
	require.Equal(t, 2, getPerson(t, s, session, ann.ID).AssetCount)

	r := s.Do("DELETE", "/api/assets", session, body)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	got := getPerson(t, s, session, ann.ID)
	require.Equal(t, 1, got.AssetCount)
	require.Equal(t, f2.ID, *got.ThumbnailFaceID, "the featured face moved to a remaining one")
	require.Equal(t, []string{f2.ID}, faceIDs(servertest.List[api.Face](s, session, "/api/faces")))
	events := faceEvents(t, s, session)
	require.Equal(t, []string{
		"face.deleted " + f1.ID + ` {"asset_id":"` + a1.ID + `","person_id":"` + ann.ID + `"}`,
		"person.updated " + ann.ID + ` {"fields":["faces"]}`,
	}, events[len(events)-2:])
}

func TestFaceThumbnail(t *testing.T) {
	s := startPeopleServer(t)
	_, session := s.Session()
	a := s.UploadAsset(session, "1.jpg", servertest.JPEG(t, 8, 8, 1), nil)
	ann := person(t, s, session, "Ann")
	f := face(t, s, session, a.ID, &ann.ID) // (0.25, 0.25) 0.5×0.5
	p := getPerson(t, s, session, ann.ID)
	require.Equal(t, "/api/faces/"+f.ID+"/thumbnail", *p.ThumbnailFaceURL)
	require.Equal(t, f.ThumbnailURL, *p.ThumbnailFaceURL)
	require.Equal(t, "/api/assets/"+a.ID+"/original", p.AssetURLs.Original)

	detail := requireDetail(t, s.Do("GET", f.ThumbnailURL, session, nil), http.StatusNotFound)
	require.Contains(t, detail, "preview")

	// Stand in for the ingest pipeline: a 400×200 preview.
	dir := servertest.BlobFile(t, s.Config.DataDir, "variants/"+a.ID)
	require.NoError(t, os.MkdirAll(dir, 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "preview.jpg"), servertest.JPEG(t, 400, 200, 3), 0o600))

	resp, body := download(t, s, session, f.ThumbnailURL, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%s", body)
	require.Equal(t, "image/webp", resp.Header.Get("Content-Type"))
	img, _, err := image.Decode(bytes.NewReader(body))
	require.NoError(t, err)
	require.Equal(t, image.Rect(0, 0, 200, 200), img.Bounds(),
		"the 200×100 px box, widened by 20% a side (280 px), fits the image's height")
	etag := resp.Header.Get("ETag")
	require.NotEmpty(t, etag)
	resp, _ = download(t, s, session, f.ThumbnailURL, map[string]string{"If-None-Match": etag})
	require.Equal(t, http.StatusNotModified, resp.StatusCode)
	validationItems(t, s.Do("GET", f.ThumbnailURL+"?size=2", session, nil))
}

// waitForVariants polls an asset's tasks until its variants task has
// succeeded (the other steps do not matter here). The deadline only bounds
// a hung pipeline.
func waitForVariants(t *testing.T, s *servertest.Server, token, assetID string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		for _, task := range servertest.List[api.Task](s, token, "/api/tasks?kind=variants&asset_id="+assetID) {
			require.NotEqual(t, "failed", task.State, "%+v", task)
			if task.State == "succeeded" {
				return
			}
		}
		require.True(t, time.Now().Before(deadline), "the variants task of %s is still pending", assetID)
		time.Sleep(50 * time.Millisecond)
	}
}

func TestFaceThumbnailFromThePipelinesPreview(t *testing.T) {
	s := servertest.Start(t, servertest.WithPipeline)
	_, session := s.Session()
	a := s.UploadAsset(session, "1.jpg", servertest.JPEG(t, 800, 600, 1), nil)
	waitForVariants(t, s, session, a.ID)
	f := servertest.Expect[api.Face](t, s.Do("POST", "/api/faces", session, map[string]any{"asset_id": a.ID, "bounding_box": box(0.5, 0.5, 0.25, 0.25)}), http.StatusCreated)
	resp, body := download(t, s, session, f.ThumbnailURL, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%s", body)
	img, _, err := image.Decode(bytes.NewReader(body))
	require.NoError(t, err)
	require.Equal(t, img.Bounds().Dx(), img.Bounds().Dy(), "square")
	require.LessOrEqual(t, img.Bounds().Dx(), 250)
}

// TestPeopleResponsesMatchTheDocument checks answers of the people and
// face routes against the OpenAPI document.
func TestPeopleResponsesMatchTheDocument(t *testing.T) {
	s := startPeopleServer(t)
	v := newValidator(t, servedDocument(t, s))
	_, session := s.Session()
	a := s.UploadAsset(session, "1.jpg", servertest.JPEG(t, 8, 8, 1), nil)
	var ann, bob api.Person
	exchange(t, s, v, "POST", "/api/people", session, map[string]any{"name": "Ann"}, http.StatusCreated).JSON(t, &ann)
	exchange(t, s, v, "POST", "/api/people", session, map[string]any{"name": "ann"}, http.StatusOK)
	exchange(t, s, v, "POST", "/api/people", session, map[string]any{"name": "Bob"}, http.StatusCreated).JSON(t, &bob)
	var f api.Face
	exchange(t, s, v, "POST", "/api/faces", session, map[string]any{"asset_id": a.ID, "person_id": ann.ID,
		"bounding_box": box(0.1, 0.1, 0.2, 0.2)}, http.StatusCreated).JSON(t, &f)
	for _, c := range []struct {
		method, path string
		body         any
		status       int
	}{
		{"GET", "/api/people", nil, http.StatusOK},
		{"GET", "/api/people/" + ann.ID, nil, http.StatusOK},
		{"PATCH", "/api/people/" + bob.ID, map[string]any{"birth_date": "2000-01-01"}, http.StatusOK},
		{"PATCH", "/api/people/" + bob.ID, map[string]any{"name": "ANN"}, http.StatusConflict},
		{"POST", "/api/people", map[string]any{"name": " "}, http.StatusUnprocessableEntity},
		{"POST", "/api/people/" + bob.ID + "/reassign", map[string]any{"face_ids": []string{f.ID}}, http.StatusOK},
		{"POST", "/api/people/" + ann.ID + "/merge", map[string]any{"ids": []string{bob.ID}}, http.StatusOK},
		{"GET", "/api/faces?person_id=" + ann.ID, nil, http.StatusOK},
		{"GET", "/api/assets/" + a.ID, nil, http.StatusOK},
		{"GET", "/api/assets?person_ids=" + ann.ID, nil, http.StatusOK},
		{"GET", "/api/faces/" + f.ID + "/thumbnail", nil, http.StatusNotFound},
		{"DELETE", "/api/faces/" + f.ID, nil, http.StatusNoContent},
	} {
		exchange(t, s, v, c.method, c.path, session, c.body, c.status)
	}
}
