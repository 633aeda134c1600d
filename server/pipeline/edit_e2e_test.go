package pipeline_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

// TestEditedPositionIsGeocodedAgain moves an ingested photo by PATCH and
// follows the geocode task the edit enqueues: the place follows the
// position, and clearing the position brings back the file's (none).
func TestEditedPositionIsGeocodedAgain(t *testing.T) {
	needTools(t, "exiftool", "ffmpeg", "ffprobe")
	s := servertest.Start(t, servertest.WithPipeline)
	_, session := s.Session()
	a := s.UploadAsset(session, "plain.jpg", servertest.JPEG(t, 64, 48, 7), nil)
	s.WaitForTasks(session, a.ID, chainTimeout)

	place := func(change map[string]any) api.AssetMetadata {
		r := s.Do("PATCH", "/api/assets/"+a.ID, session, change)
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		for _, task := range s.WaitForTasks(session, a.ID, chainTimeout) {
			require.Equal(t, "succeeded", task.State, "%s: %v", task.Kind, task.Error)
		}
		var got api.Asset
		s.Do("GET", "/api/assets/"+a.ID, session, nil).JSON(t, &got)
		return got.Metadata
	}
	m := place(map[string]any{"latitude": 35.0116, "longitude": 135.7681})
	require.Equal(t, "Kyoto, Japan", deref(m.DisplayLabel))
	m = place(map[string]any{"latitude": nil, "longitude": nil})
	require.Nil(t, m.City)
	require.Nil(t, m.DisplayLabel)
}
