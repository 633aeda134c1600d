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
	"github.com/photoctl/photoctl/server/store"
)

// faceIDs lists the ids of the asset's faces, oldest first.
func (e *env) faces(id string) []catalog.Face {
	e.t.Helper()
	list, err := e.st.Read().Faces().ForAssets(e.ctx, []string{id})
	require.NoError(e.t, err)
	return list
}

// eventCount counts the library's events of one type.
func (e *env) eventCount(a *catalog.Asset, typ string) int {
	e.t.Helper()
	list, _, err := e.st.Read().Events().List(e.ctx, a.LibraryID, query.Page{Limit: 1000})
	require.NoError(e.t, err)
	n := 0
	for _, ev := range list {
		if ev.Type == typ {
			n++
		}
	}
	return n
}

// TestFacesRerunKeepsUserDecisionsAndWritesNothingUnchanged runs the
// faces step again over a photo whose faces a user has worked on: faces
// found where they were stay as they are, a user's assignment, a face
// taken away from a person and a drawn face are kept and never doubled,
// and a machine face no longer found goes.
func TestFacesRerunKeepsUserDecisionsAndWritesNothingUnchanged(t *testing.T) {
	e := newEnv(t)
	p := e.mlPipeline()
	a := e.upload(photo(t, "face-api-sample4.jpg"), "", assets.UploadInput{})
	e.ingest(a.ID)

	require.NoError(t, p.Faces(e.ctx, a.ID))
	first := e.faces(a.ID)
	require.Len(t, first, 4)
	require.Equal(t, 4, e.eventCount(a, "face.created"))

	require.NoError(t, p.Faces(e.ctx, a.ID))
	require.Equal(t, first, e.faces(a.ID), "the same rendering: nothing to do")
	e.forget(a.ID, pipeline.KindFaces) // as after a new rendering
	require.NoError(t, p.Faces(e.ctx, a.ID))
	require.Equal(t, first, e.faces(a.ID), "the same faces, untouched")
	require.Equal(t, 4, e.eventCount(a, "face.created"), "a re-run that finds the same writes nothing")

	// A user names one face's person and takes another away from its
	// person; draws a face; a machine face appears that the detector will
	// not find again (as after a new preview).
	now := time.Now().UTC()
	ann := &catalog.Person{ID: catalog.NewID(catalog.PrefixPerson, now), LibraryID: a.LibraryID, Name: "Ann",
		Verified: true, CreatedAt: now, UpdatedAt: now}
	drawn := &catalog.Face{ID: catalog.NewID(catalog.PrefixFace, now), AssetID: a.ID, LibraryID: a.LibraryID,
		Box: catalog.BoundingBox{X: 0.9, Y: 0.9, Width: 0.05, Height: 0.05}, Source: catalog.FaceManual,
		CreatedAt: now, UpdatedAt: now}
	stray := &catalog.Face{ID: catalog.NewID(catalog.PrefixFace, now), AssetID: a.ID, LibraryID: a.LibraryID,
		Box: catalog.BoundingBox{X: 0.01, Y: 0.85, Width: 0.05, Height: 0.1}, Source: catalog.FaceMachine,
		Confidence: ptr(0.9), Embedding: make([]byte, 2048), CreatedAt: now, UpdatedAt: now}
	require.NoError(t, e.st.InTx(e.ctx, func(r store.Repos) error {
		if err := r.People().Create(e.ctx, ann); err != nil {
			return err
		}
		if err := r.Faces().Assign(e.ctx, []string{first[0].ID}, &ann.ID, now); err != nil {
			return err
		}
		if err := r.Faces().Assign(e.ctx, []string{first[1].ID}, nil, now); err != nil {
			return err
		}
		if err := r.Faces().Create(e.ctx, drawn); err != nil {
			return err
		}
		return r.Faces().Create(e.ctx, stray)
	}))
	e.forget(a.ID, pipeline.KindFaces)

	require.NoError(t, p.Faces(e.ctx, a.ID))
	after := e.faces(a.ID)
	ids := make([]string, len(after))
	for i, f := range after {
		ids[i] = f.ID
	}
	want := []string{first[0].ID, first[1].ID, first[2].ID, first[3].ID, drawn.ID}
	slices.Sort(want)
	slices.Sort(ids)
	require.Equal(t, want, ids, "the stray machine face went; nothing was added")
	require.Equal(t, &ann.ID, after[slices.IndexFunc(after, func(f catalog.Face) bool { return f.ID == first[0].ID })].PersonID)
	require.Equal(t, 1, e.eventCount(a, "face.deleted"))
	require.Equal(t, 4, e.eventCount(a, "face.created"))
}

// forget makes step forget the rendering it read, so that it runs again.
func (e *env) forget(id, step string) {
	e.t.Helper()
	require.NoError(e.t, e.st.InTx(e.ctx, func(r store.Repos) error {
		return r.AssetTexts().PutRan(e.ctx, id, step, "", time.Now())
	}))
}

// TestADeletedFaceStaysDeletedWhenTheChainRunsAgain: a position edit
// runs faces again after geocode, on the rendering it already read.
func TestADeletedFaceStaysDeletedWhenTheChainRunsAgain(t *testing.T) {
	e := newEnv(t)
	p := e.mlPipeline()
	a := e.upload(photo(t, "face-api-sample1.jpg"), "", assets.UploadInput{})
	e.ingest(a.ID)
	require.NoError(t, p.Faces(e.ctx, a.ID))
	require.NoError(t, p.OCR(e.ctx, a.ID))
	list := e.faces(a.ID)
	require.Len(t, list, 3)
	require.NoError(t, e.st.InTx(e.ctx, func(r store.Repos) error {
		return r.Faces().Delete(e.ctx, []string{list[0].ID})
	}))
	updates := e.eventCount(a, "asset.updated")
	require.NoError(t, p.Faces(e.ctx, a.ID))
	require.NoError(t, p.OCR(e.ctx, a.ID))
	require.Len(t, e.faces(a.ID), 2)
	require.Equal(t, updates, e.eventCount(a, "asset.updated"))
}

// TestFacesOfAVanishedAssetIsASuccess: the asset deleted while the step
// ran leaves nothing to do.
func TestFacesOfAVanishedAssetIsASuccess(t *testing.T) {
	e := newEnv(t)
	p := e.mlPipeline()
	require.NoError(t, p.Faces(e.ctx, catalog.NewID(catalog.PrefixAsset, time.Now())))
	require.NoError(t, p.OCR(e.ctx, catalog.NewID(catalog.PrefixAsset, time.Now())))
	require.NoError(t, p.Describe(e.ctx, catalog.NewID(catalog.PrefixAsset, time.Now())))
}
