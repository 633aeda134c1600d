package pipeline_test

import (
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// BenchmarkBurstStep measures the burst step per asset in libraries of
// 1,000 and 50,000 assets: a lone shot (the common case: one indexed range
// on a reader, nothing written) and a member of a burst already stacked (a
// walk of its five shots, nothing written). The cost should not grow with
// the library. Setup inserts the rows directly (one shot every 2 s, every
// 25th a burst of five shots 0.2 s apart) and stacks the bursts first.
func BenchmarkBurstStep(b *testing.B) {
	for _, size := range []int{1_000, 50_000} {
		e := newEnv(b)
		lone, members := burstLibrary(b, e, size)
		for _, id := range members {
			require.NoError(b, e.p.Burst(e.ctx, id))
		}
		a := e.get(members[0])
		require.NotNil(b, a.StackID, "the bursts are stacked")
		for name, ids := range map[string][]string{"lone shot": lone, "stacked burst member": members} {
			b.Run(fmt.Sprintf("%d assets/%s", size, name), func(b *testing.B) {
				i := 0
				for b.Loop() {
					require.NoError(b, e.p.Burst(e.ctx, ids[i%len(ids)]))
					i++
				}
			})
		}
	}
}

// burstLibrary fills the env user's library with n measured shots by one
// camera and returns the ids of lone shots and of burst members.
func burstLibrary(b *testing.B, e *env, n int) (lone, members []string) {
	b.Helper()
	libs, err := e.st.Read().Libraries().LiveMemberships(e.ctx, e.user.User.ID)
	require.NoError(b, err)
	rng := rand.New(rand.NewPCG(1, 2))
	mk, model := "Canon", "EOS 5D Mark II"
	at := burstStart
	var batch []*catalog.Asset
	flush := func() {
		require.NoError(b, e.st.InTx(e.ctx, func(r store.Repos) error {
			for _, a := range batch {
				if err := r.Assets().Create(e.ctx, a); err != nil {
					return err
				}
			}
			return nil
		}))
		batch = batch[:0]
	}
	for i := 0; i < n; {
		shots, hash := 1, rng.Uint64()
		if i%25 == 0 {
			shots = 5
		}
		for k := range shots {
			sum := sha256.Sum256([]byte(fmt.Sprint("burst bench ", i)))
			wall := at.Add(time.Duration(k) * 200 * time.Millisecond)
			a := &catalog.Asset{ID: catalog.NewID(catalog.PrefixAsset, wall), LibraryID: libs[0].Library.ID,
				ContributorID: e.user.User.ID, MediaType: catalog.MediaImage, MIMEType: "image/jpeg",
				OriginalFileName: "IMG.JPG", FileCreatedAt: wall, FileModifiedAt: wall,
				Capture: catalog.CaptureTime{Wall: wall}, Checksum: sum[:], OriginalSize: 1, FileSizeBytes: 1,
				CreatedAt: wall, UpdatedAt: wall,
				Metrics: map[string]any{"phash": fmt.Sprintf("%016x", hash^uint64(k)), "quality": rng.Float64()}}
			a.FileMeta.Make, a.FileMeta.Model = &mk, &model
			batch = append(batch, a)
			if shots == 1 {
				lone = append(lone, a.ID)
			} else {
				members = append(members, a.ID)
			}
			i++
		}
		at = at.Add(2 * time.Second)
		if len(batch) >= 5000 {
			flush()
		}
	}
	flush()
	return lone, members
}
