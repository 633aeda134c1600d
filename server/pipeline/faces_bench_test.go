package pipeline_test

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/assets"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/pipeline"
	"github.com/photoctl/photoctl/server/store"
)

// BenchmarkFacesStep runs the faces step through the pipeline — decode the
// stored 1440 px preview, detect, landmark, check and embed, then store
// the faces with their events — on the six face-api group photos (22
// faces), each run on an asset whose faces were removed first, so every
// run writes them anew. It reports faces and photos per CPU-second of the
// process (ONNX Runtime's threads included), which holds on a busy
// machine where wall time does not: one step at a time, and one per CPU.
func BenchmarkFacesStep(b *testing.B) {
	e := newEnv(b)
	p := e.mlPipeline()
	var ids []string
	for _, name := range []string{"face-api-sample1.jpg", "face-api-sample2.jpg", "face-api-sample3.jpg",
		"face-api-sample4.jpg", "face-api-sample5.jpg", "face-api-sample6.jpg"} {
		a := e.upload(photo(b, name), "", assets.UploadInput{})
		e.ingest(a.ID)
		ids = append(ids, a.ID)
	}
	// clear removes an asset's faces, so the next run stores them again.
	clear := func(id string) {
		require.NoError(b, e.st.InTx(e.ctx, func(r store.Repos) error {
			list, err := r.Faces().ForAssets(e.ctx, []string{id})
			if err != nil {
				return err
			}
			faceIDs := make([]string, len(list))
			for i, f := range list {
				faceIDs[i] = f.ID
			}
			if err := r.Faces().Delete(e.ctx, faceIDs); err != nil {
				return err
			}
			return r.AssetTexts().PutRan(e.ctx, id, pipeline.KindFaces, "", time.Now())
		}))
	}
	count := func(id string) int { return len(e.faces(id)) }
	report := func(b *testing.B, cpu0 int64, faces, photos int64) {
		cpu := float64(selfCPU(b).Nanoseconds()-cpu0) / 1e9
		b.ReportMetric(float64(faces)/cpu, "faces/cpu-s")
		b.ReportMetric(float64(photos)/cpu, "photos/cpu-s")
	}

	b.Run("one at a time", func(b *testing.B) {
		var faces, photos int64
		cpu0 := selfCPU(b).Nanoseconds()
		i := 0
		for b.Loop() {
			id := ids[i%len(ids)]
			clear(id)
			require.NoError(b, p.Faces(e.ctx, id))
			faces += int64(count(id))
			photos++
			i++
		}
		report(b, cpu0, faces, photos)
	})
	// Each worker of the parallel run works on its own copies of the
	// photos.
	workers := runtime.GOMAXPROCS(0)
	copies := make([][]string, workers)
	for w := range copies {
		for i, id := range ids {
			copies[w] = append(copies[w], copyAsset(b, e, id, int64(w*len(ids)+i)))
		}
	}
	b.Run("one per CPU", func(b *testing.B) {
		var next atomic.Int64
		var faces, photos atomic.Int64
		cpu0 := selfCPU(b).Nanoseconds()
		b.RunParallel(func(pb *testing.PB) {
			own := copies[int(next.Add(1)-1)%workers]
			i := 0
			for pb.Next() {
				id := own[i%len(own)]
				clear(id)
				require.NoError(b, p.Faces(e.ctx, id))
				faces.Add(int64(count(id)))
				photos.Add(1)
				i++
			}
		})
		report(b, cpu0, faces.Load(), photos.Load())
	})
}

// copyAsset makes another asset row with the same renderings as id (the
// preview is keyed by asset id), for workers that must not share assets.
func copyAsset(b *testing.B, e *env, id string, n int64) string {
	b.Helper()
	a := e.get(id)
	c := *a
	c.ID = catalog.NewID(catalog.PrefixAsset, a.CreatedAt)
	c.Checksum = append(append([]byte(nil), a.Checksum...), byte(n), byte(n>>8))
	c.StackID = nil
	require.NoError(b, e.st.InTx(e.ctx, func(r store.Repos) error { return r.Assets().Create(e.ctx, &c) }))
	for _, ext := range []string{".webp", ".jpg"} {
		src := assets.VariantKey(id, "preview", ext)
		f, err := e.blobs.Open(src)
		if err != nil {
			continue
		}
		err = e.blobs.Put(assets.VariantKey(c.ID, "preview", ext), f)
		f.Close()
		require.NoError(b, err)
	}
	return c.ID
}
