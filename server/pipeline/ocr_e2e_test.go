package pipeline_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

// words drops the spaces: the OCR model sometimes runs two English words
// together; the letters must all be right (docs/ml.md, "Text").
func words(s string) string { return strings.ReplaceAll(s, " ", "") }

// TestRenderedTextIsReadAndStored uploads a picture of a sign to the real
// server: OCR stores its lines for search, in reading order with their
// boxes, and the built-in description quotes them.
func TestRenderedTextIsReadAndStored(t *testing.T) {
	servertest.SkipStoreNeutralOnPostgres(t, "reading text (OCR)")
	needTools(t, "exiftool", "ffmpeg", "ffprobe")
	s := servertest.Start(t, withML(t))
	_, session := s.Session()
	a := s.UploadAsset(session, "sign.png", servertest.TextPNG(t, "HARBOUR CAFE", "Open daily 1987"), nil)
	state, errs := states(s.WaitForTasks(session, a.ID, chainTimeout))
	for _, kind := range []string{"faces", "ocr", "describe"} {
		require.Equal(t, "succeeded", state[kind], kind)
		require.Empty(t, errs[kind], kind)
	}

	rec, err := serverStore(t, s).Read().AssetTexts().Get(t.Context(), a.ID)
	require.NoError(t, err)
	require.Equal(t, words("HARBOUR CAFE\nOpen daily 1987"), words(deref(rec.OCRText)))
	require.Len(t, rec.OCRLines, 2)
	first, second := rec.OCRLines[0], rec.OCRLines[1]
	require.Less(t, first.Box.Y+first.Box.Height, second.Box.Y+second.Box.Height/2, "reading order: top line first")
	require.Greater(t, first.Score, 0.5)
	require.NoError(t, first.Box.Validate())

	r := s.Do("GET", "/api/assets/"+a.ID, session, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var detail api.AssetDetail
	r.JSON(t, &detail)
	require.Equal(t, rec.OCRText, detail.OCRText, "the asset shows the text read in it")
	a = detail.Asset
	t.Logf("description: %s", deref(a.Description))
	require.Contains(t, words(deref(a.Description)), words(`It shows the text "HARBOUR CAFE Open daily 1987".`))
	require.Contains(t, assetEvents(t, s, session, a.LibraryID)["asset.updated"], `{"fields":[],"step":"ocr"}`)
}
