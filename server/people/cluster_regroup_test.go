package people

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/store"
)

// regroupCase builds a regrouping face by face.
type regroupCase struct {
	rng *rand.Rand
	g   regrouping
}

func newRegroupCase(seed uint64) *regroupCase {
	return &regroupCase{rng: rand.New(rand.NewPCG(seed, seed)),
		g: regrouping{anchors: newVecSet(), threshold: float32(DefaultClusterConfig().Threshold)}}
}

// face adds a face of center in cluster ("" none) on asset (a new one
// when "") and returns its index.
func (c *regroupCase) face(center []float32, cluster, asset string) int {
	i := len(c.g.faces)
	if asset == "" {
		asset = fmt.Sprint("asset", i)
	}
	c.g.faces = append(c.g.faces, vface{ClusterFace: store.ClusterFace{ID: fmt.Sprintf("face%03d", i), AssetID: asset},
		vec: SynthFace(c.rng, center, 0.8)})
	c.g.clusterOf = append(c.g.clusterOf, cluster)
	return i
}

func TestRegroup(t *testing.T) {
	t.Run("two clusters of one person merge into the larger; another person stays apart", func(t *testing.T) {
		c := newRegroupCase(1)
		x, y := SynthCenter(c.rng), SynthCenter(c.rng)
		var xs, ys []int
		for i := range 6 {
			xs = append(xs, c.face(x, []string{"big", "big", "big", "big", "small", "small"}[i], ""))
			ys = append(ys, c.face(y, "other", ""))
		}
		final, err := regroup(t.Context(), c.g)
		require.NoError(t, err)
		for _, i := range xs {
			require.Equal(t, "big", final[i])
		}
		for _, i := range ys {
			require.Equal(t, "other", final[i])
		}
	})
	t.Run("an outlier leaves its cluster for the person it resembles", func(t *testing.T) {
		c := newRegroupCase(2)
		x, y := SynthCenter(c.rng), SynthCenter(c.rng)
		for range 4 {
			c.face(x, "x", "")
			c.face(y, "y", "")
		}
		stray := c.face(y, "x", "")
		final, err := regroup(t.Context(), c.g)
		require.NoError(t, err)
		require.Equal(t, "y", final[stray])
		require.Equal(t, "x", final[0])
	})
	t.Run("an outlier like nobody starts a new cluster; unplaced faces group", func(t *testing.T) {
		c := newRegroupCase(3)
		x, z := SynthCenter(c.rng), SynthCenter(c.rng)
		for range 4 {
			c.face(x, "x", "")
		}
		stray := c.face(z, "x", "")
		loose := []int{c.face(z, "", ""), c.face(z, "", "")}
		final, err := regroup(t.Context(), c.g)
		require.NoError(t, err)
		require.Equal(t, "+1", final[stray])
		require.Equal(t, []string{"+1", "+1"}, []string{final[loose[0]], final[loose[1]]})
	})
	t.Run("clusters sharing a photo do not merge", func(t *testing.T) {
		c := newRegroupCase(4)
		x := SynthCenter(c.rng)
		a := c.face(x, "a", "shared")
		b := c.face(x, "b", "shared")
		c.face(x, "a", "")
		final, err := regroup(t.Context(), c.g)
		require.NoError(t, err)
		require.Equal(t, "a", final[a])
		require.Equal(t, "b", final[b])
	})
	t.Run("a cluster like a person a user decided on joins that person", func(t *testing.T) {
		c := newRegroupCase(5)
		x := SynthCenter(c.rng)
		anchor := make([]float32, dim)
		for range 5 {
			addVec(anchor, SynthFace(c.rng, x, 0.8), 1)
		}
		c.g.anchors.put("named", anchor, 5)
		i := c.face(x, "m", "")
		j := c.face(x, "m", "")
		k := c.face(x, "", "")
		final, err := regroup(t.Context(), c.g)
		require.NoError(t, err)
		require.Equal(t, []string{"named", "named", "named"}, []string{final[i], final[j], final[k]})
	})
}
