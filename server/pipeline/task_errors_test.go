package pipeline_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/servertest"
)

// TestAFailedRenderNamesTheAssetNotTheServerPath: a file that libvips
// cannot render fails its variants task, and the error users read names
// the asset, not where the data directory is on the server.
func TestAFailedRenderNamesTheAssetNotTheServerPath(t *testing.T) {
	servertest.SkipStoreNeutralOnPostgres(t, "a render's error message")
	needTools(t, "exiftool", "ffmpeg", "ffprobe")
	s := servertest.Start(t, servertest.WithPipeline)
	_, token := s.Session()
	jpeg := servertest.JPEG(t, 64, 48, 3)
	a := s.UploadAsset(token, "truncated.jpg", jpeg[:len(jpeg)/2], nil)
	outcome := requireChainEnds(t, s, token, a.ID, nil)
	task := outcome["variants"]
	require.Equal(t, "failed", task.State)
	require.NotNil(t, task.Error)
	msg := *task.Error
	t.Logf("error: %s", msg)
	require.Contains(t, msg, a.ID)
	require.Contains(t, msg, "end-of-image", "the reason stays")
	require.NotContains(t, msg, s.Config.DataDir)
	require.NotContains(t, msg, "blobs/")
}
