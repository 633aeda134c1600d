package pipeline_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/assets"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/pipeline"
	"github.com/photoctl/photoctl/server/store"
)

// TestSplitOCRTextsOncePerVersion: a text stored with terms of another
// splitter (none, as before the dictionary knew its words) gets this
// splitter's terms, and search finds it by them; the pass writes nothing
// where the terms are right, and runs once per version.
func TestSplitOCRTextsOncePerVersion(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	sign := e.upload(halves(t, 64, 48), "", assets.UploadInput{})
	parking := e.upload(halves(t, 48, 64), "", assets.UploadInput{})
	described := e.upload(halves(t, 40, 40), "", assets.UploadInput{})
	put := func(id, text, terms string) {
		require.NoError(t, e.st.InTx(e.ctx, func(r store.Repos) error {
			return r.AssetTexts().PutOCR(e.ctx, id, []catalog.TextLine{{Text: text}}, terms, time.Now())
		}))
	}
	put(sign.ID, "HARVESTMOONBAKERY", "")
	put(parking.ID, "NOPARKING", "no parking")
	require.NoError(t, e.st.InTx(e.ctx, func(r store.Repos) error {
		return r.AssetTexts().PutDescriber(e.ctx, described.ID, "builtin", time.Now())
	}))
	require.Empty(t, e.search(sign.LibraryID, "bakery"))
	terms := func(id string) *string {
		rec, err := e.st.Read().AssetTexts().Get(e.ctx, id)
		require.NoError(t, err)
		return rec.OCRTerms
	}

	n, err := pipeline.SplitOCRTexts(e.ctx, e.st, "v1", time.Now())
	require.NoError(t, err)
	require.Equal(t, 1, n, "only the text whose terms change is written")
	require.Equal(t, ptr("harvest moon bakery"), terms(sign.ID))
	require.Equal(t, []string{sign.ID}, e.search(sign.LibraryID, "bakery"))
	require.Equal(t, ptr("no parking"), terms(parking.ID))

	require.NoError(t, e.st.InTx(e.ctx, func(r store.Repos) error {
		_, err := r.AssetTexts().PutOCRTerms(e.ctx, sign.ID, "HARVESTMOONBAKERY", "")
		return err
	}))
	n, err = pipeline.SplitOCRTexts(e.ctx, e.st, "v1", time.Now())
	require.NoError(t, err)
	require.Zero(t, n, "a version's pass runs once")
	require.Equal(t, ptr(""), terms(sign.ID))
	n, err = pipeline.SplitOCRTexts(e.ctx, e.st, "v2", time.Now())
	require.NoError(t, err)
	require.Equal(t, 1, n, "a new version splits again")
	require.Equal(t, ptr("harvest moon bakery"), terms(sign.ID))
}
