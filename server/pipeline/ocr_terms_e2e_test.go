package pipeline_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

// TestRunTogetherWordsOnASignAreFoundByTheirParts uploads a picture of a
// sign whose words are printed together to the real server: OCR reads
// them as one token, search finds the asset by each word, and the asset
// shows the text as read.
func TestRunTogetherWordsOnASignAreFoundByTheirParts(t *testing.T) {
	needTools(t, "exiftool", "ffmpeg", "ffprobe")
	s := servertest.Start(t, withML(t))
	_, session := s.Session()
	a := s.UploadAsset(session, "bakery.png", servertest.TextPNG(t, "HARVESTMOONBAKERY"), nil)
	other := s.UploadAsset(session, "cafe.png", servertest.TextPNG(t, "HARBOUR CAFE"), nil)
	for _, id := range []string{a.ID, other.ID} {
		state, errs := states(s.WaitForTasks(session, id, chainTimeout))
		require.Equal(t, "succeeded", state["ocr"], errs["ocr"])
	}

	rec, err := serverStore(t, s).Read().AssetTexts().Get(t.Context(), a.ID)
	require.NoError(t, err)
	require.Equal(t, "HARVESTMOONBAKERY", deref(rec.OCRText), "read as one token")
	require.Equal(t, "harvest moon bakery", deref(rec.OCRTerms))

	for _, word := range []string{"bakery", "harvest", "moon", "Harvest Moon", "HARVESTMOONBAKERY"} {
		require.Equal(t, []string{a.ID}, s.SearchIDs(session, word), "query %q", word)
	}

	r := s.Do("GET", "/api/assets/"+a.ID, session, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var detail api.AssetDetail
	r.JSON(t, &detail)
	require.Equal(t, "HARVESTMOONBAKERY", deref(detail.OCRText), "the asset shows the text as read, not its parts")
}
