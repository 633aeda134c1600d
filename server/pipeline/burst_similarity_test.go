package pipeline_test

import (
	"fmt"
	"image"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/ingest/metrics"
	"github.com/photoctl/photoctl/ingest/racetest"
	"github.com/photoctl/photoctl/ingest/variant"
	"github.com/photoctl/photoctl/server/pipeline"
	"github.com/photoctl/photoctl/server/servertest"
)

// TestBurstSimilarityThresholdSeparatesRealPhotos measures what the
// default pHash threshold (pipeline.DefaultBurstMaxDistance) is chosen
// from: the distance between burst-like frames of one real photo (shifted
// by up to 3% of the frame, 10% brighter or darker, blurred by a shake,
// each against the steady frame) and between different real photos, with
// the hash computed as the pipeline does (libvips preview, its sample,
// ingest/metrics). Every frame of the full-size photos must be within the
// threshold (the 500 px Nikon photo's shifted frames are only logged: a
// 2% shift moves its few pixels far in hash terms), every pair of
// different photos beyond it. Run with -v to print the distances.
func TestBurstSimilarityThresholdSeparatesRealPhotos(t *testing.T) {
	t.Parallel()
	servertest.SkipStoreNeutralOnPostgres(t, "how alike real photos hash")
	// Its subject is the numbers: frames drawn and encoded in Go, hashed one
	// at a time (17 s of CPU without -race, 48 s with it). The renderer's concurrency runs
	// under -race in ingest/variant and every pipeline test.
	racetest.SkipPure(t)
	needTools(t, "exiftool")
	r, err := variant.NewRenderer(variant.Config{Concurrency: 2})
	require.NoError(t, err)
	t.Cleanup(func() { r.Close() })
	dir := t.TempDir()
	hash := func(name string, img image.Image) string {
		res, err := r.Render(t.Context(), writeJPEG(t, dir, name+".jpg", img), "image/jpeg")
		require.NoError(t, err)
		s, err := r.Sample(t.Context(), res.Preview)
		require.NoError(t, err)
		return metrics.Compute(s).PHash
	}
	moves := map[string]frame{
		"1% right":          {dx: 0.04, dy: 0.03, gain: 1},
		"2% left":           {dx: 0.01, dy: 0.03, gain: 1},
		"2% down":           {dx: 0.03, dy: 0.05, gain: 1},
		"2% up and left":    {dx: 0.01, dy: 0.01, gain: 1},
		"3% right, 2% down": {dx: 0.06, dy: 0.05, gain: 1},
		"10% brighter":      {dx: 0.03, dy: 0.03, gain: 1.1},
		"10% darker":        {dx: 0.03, dy: 0.03, gain: 0.9},
		"shaken (blur 4px)": {dx: 0.03, dy: 0.03, gain: 1, blur: 4},
		"1% left, blurred":  {dx: 0.02, dy: 0.03, gain: 0.95, blur: 3},
	}
	var similar, different []int
	var steadyHashes []string
	for i, path := range realPhotos(t) {
		small := filepath.Base(path) == "sample1.jpg"
		photo := loadPhoto(t, path)
		base := hash(fmt.Sprint(i), steady.of(photo))
		steadyHashes = append(steadyHashes, base)
		for name, fr := range moves {
			d := metrics.HammingDistance(base, hash(fmt.Sprint(i, name), fr.of(photo)))
			t.Logf("photo %d, %s: %d bits", i, name, d)
			if !small {
				similar = append(similar, d)
			}
		}
	}
	for i := range steadyHashes {
		for j := i + 1; j < len(steadyHashes); j++ {
			d := metrics.HammingDistance(steadyHashes[i], steadyHashes[j])
			t.Logf("photo %d vs photo %d: %d bits", i, j, d)
			different = append(different, d)
		}
	}
	slices.Sort(similar)
	slices.Sort(different)
	t.Logf("burst frames of full-size photos: %v", similar)
	t.Logf("different photos: %v", different)
	limit := pipeline.DefaultBurstMaxDistance
	require.LessOrEqual(t, similar[len(similar)-1], limit, "a burst frame would be left out")
	require.Greater(t, different[0], limit, "different photos would be stacked")
}
