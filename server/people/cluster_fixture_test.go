package people

import (
	"context"
	"crypto/sha256"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/store/sqlite"
)

// SynthCenter is a random identity: a unit vector in the embedding space
// (random directions there are all but orthogonal, like different people).
func SynthCenter(rng *rand.Rand) []float32 {
	v := make([]float32, dim)
	for i := range v {
		v[i] = float32(rng.NormFloat64())
	}
	return unit(v)
}

// SynthFace is a face of the identity center: a unit vector whose cosine
// with center is about like (one person's faces are then about like² to
// each other, as a real model's: 0.6 for like 0.77).
func SynthFace(rng *rand.Rand, center []float32, like float64) []float32 {
	noise := SynthCenter(rng)
	// Remove noise's part along center so the cosine is exactly like.
	addVec(noise, center, -dot(noise, center))
	noise = unit(noise)
	v := make([]float32, dim)
	b := math.Sqrt(1 - like*like)
	for i := range v {
		v[i] = float32(like)*center[i] + float32(b)*noise[i]
	}
	return unit(v)
}

// EncodeEmbedding stores a vector as the faces table holds it.
func EncodeEmbedding(v []float32) []byte { return encodeVec(v) }

// fixture is a real SQLite store with one user and library, for tests of
// the clustering below the HTTP API (interleavings the server cannot
// force) and for benchmarks.
type fixture struct {
	t   testing.TB
	ctx context.Context
	st  store.Store
	lib string
	usr string
	n   int
	now time.Time
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "photoctl.db"))
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	f := &fixture{t: t, ctx: ctx, st: st, now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	require.NoError(t, st.InTx(ctx, func(r store.Repos) error {
		u := &catalog.User{ID: catalog.NewID(catalog.PrefixUser, f.now), Email: "c@example.com", IsActive: true,
			CreatedAt: f.now, UpdatedAt: f.now}
		if err := r.Users().Create(ctx, u); err != nil {
			return err
		}
		l := &catalog.Library{ID: catalog.NewID(catalog.PrefixLibrary, f.now), Name: "lib", OwnerID: u.ID,
			CreatedAt: f.now, UpdatedAt: f.now}
		f.lib, f.usr = l.ID, u.ID
		return r.Libraries().Create(ctx, l)
	}))
	return f
}

// clusterer returns a Clusterer over the fixture's store.
func (f *fixture) clusterer(minFaces int) *Clusterer {
	cfg := DefaultClusterConfig()
	cfg.MinFaces = minFaces
	c, err := NewClusterer(f.st, cfg, nil, func() time.Time { return f.now })
	require.NoError(f.t, err)
	return c
}

// asset inserts an asset with a machine face per vector (confidence 0.9)
// and returns the asset id and the face ids.
func (f *fixture) asset(vecs ...[]float32) (string, []string) {
	f.t.Helper()
	var assetID string
	var faceIDs []string
	require.NoError(f.t, f.st.InTx(f.ctx, func(r store.Repos) error {
		f.n++
		sum := sha256.Sum256([]byte(fmt.Sprint(f.n)))
		a := &catalog.Asset{ID: catalog.NewID(catalog.PrefixAsset, f.now), LibraryID: f.lib, ContributorID: f.usr,
			MediaType: catalog.MediaImage, MIMEType: "image/jpeg", OriginalFileName: "a.jpg", FileCreatedAt: f.now,
			FileModifiedAt: f.now, Capture: catalog.CaptureTime{Wall: f.now}, Checksum: sum[:], OriginalSize: 1,
			FileSizeBytes: 1, CreatedAt: f.now, UpdatedAt: f.now}
		if err := r.Assets().Create(f.ctx, a); err != nil {
			return err
		}
		assetID = a.ID
		for i, v := range vecs {
			conf := 0.9
			face := &catalog.Face{ID: catalog.NewID(catalog.PrefixFace, f.now), AssetID: a.ID, LibraryID: f.lib,
				Source: catalog.FaceMachine, Confidence: &conf, Embedding: encodeVec(v),
				Box: catalog.BoundingBox{X: 0.1 * float64(i), Width: 0.1, Height: 0.1}, CreatedAt: f.now, UpdatedAt: f.now}
			if err := r.Faces().Create(f.ctx, face); err != nil {
				return err
			}
			faceIDs = append(faceIDs, face.ID)
		}
		return nil
	}))
	return assetID, faceIDs
}

// personOf returns the person of a face ("" for none).
func (f *fixture) personOf(faceID string) string {
	f.t.Helper()
	face, err := f.st.Read().Faces().Get(f.ctx, faceID)
	require.NoError(f.t, err)
	if face.PersonID == nil {
		return ""
	}
	return *face.PersonID
}

// people returns the library's people.
func (f *fixture) people() []store.ClusterPerson {
	f.t.Helper()
	list, err := f.st.Read().Clustering().People(f.ctx, f.lib)
	require.NoError(f.t, err)
	return list
}
