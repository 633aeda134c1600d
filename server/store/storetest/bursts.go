package storetest

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

func shotIDs(list []store.BurstShot) []string {
	out := []string{}
	for _, s := range list {
		out = append(out, s.ID)
	}
	return out
}

var burstCases = []testCase{
	{"near finds a library's live shots by capture instant, earliest first", func(t *testing.T, s store.Store) {
		w := newOrganizeWorld(t, s)
		ten := time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)
		plus2 := 7200
		paris := w.putAsset(t, s, w.lib, ten.Add(2*time.Hour), &plus2) // 10:00:00Z
		unknown := w.putAsset(t, s, w.lib, ten.Add(-500*time.Millisecond), nil)
		later := w.putAsset(t, s, w.lib, ten.Add(1500*time.Millisecond), nil)
		w.putAsset(t, s, w.lib2, ten, nil)
		trashed := w.putAsset(t, s, w.lib, ten, nil)
		write(t, s, func(r store.Repos) error {
			return r.Assets().SetTrashed(ctx(t), []string{trashed.ID}, &ten, ten)
		})
		near, err := s.Read().Bursts().Near(ctx(t), w.lib.ID, ten.Add(-time.Second), ten.Add(time.Second), 10)
		require.NoError(t, err)
		require.Equal(t, []string{unknown.ID, paris.ID}, shotIDs(near))
		require.Equal(t, ten, near[1].Instant)
		near, err = s.Read().Bursts().Near(ctx(t), w.lib.ID, ten.Add(-time.Second), ten.Add(1500*time.Millisecond), 2)
		require.NoError(t, err)
		require.Equal(t, []string{unknown.ID, paris.ID}, shotIDs(near), "at most limit")
		near, err = s.Read().Bursts().Near(ctx(t), w.lib.ID, ten.Add(1500*time.Millisecond), ten.Add(1500*time.Millisecond), 2)
		require.NoError(t, err)
		require.Equal(t, []string{later.ID}, shotIDs(near), "both bounds included")
	}},
	{"a shot carries its camera, metrics, stack and exclusion", func(t *testing.T, s store.Store) {
		w := newOrganizeWorld(t, s)
		ten := time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)
		a := w.putAsset(t, s, w.lib, ten, nil)
		b := w.putAsset(t, s, w.lib, ten, nil)
		a.DeviceID = "phone"
		a.FileMeta.Make, a.FileMeta.Model = ptr("Canon"), ptr("EOS R5")
		a.UserMeta.Make = ptr("edited") // the file's camera counts
		a.Metrics = map[string]any{"phash": "0123456789abcdef", "quality": 0.5, "sharpness": 0.25}
		write(t, s, func(r store.Repos) error { return r.Assets().Update(ctx(t), a) })
		st := putStack(t, s, a, 5, a, b)
		got, err := s.Read().Bursts().Shots(ctx(t), []string{a.ID, "asset_missing"})
		require.NoError(t, err)
		require.Equal(t, []store.BurstShot{{ID: a.ID, LibraryID: w.lib.ID, DeviceID: "phone", Make: "Canon",
			Model: "EOS R5", Instant: ten, PHash: "0123456789abcdef", Quality: ptr(0.5), StackID: st.ID,
			StackSource: catalog.StackManual, Live: true}}, got)

		write(t, s, func(r store.Repos) error {
			if err := r.Bursts().Exclude(ctx(t), []string{b.ID, "asset_missing"}, at(6)); err != nil {
				return err
			}
			return r.Bursts().Exclude(ctx(t), []string{b.ID}, at(7))
		})
		got, err = s.Read().Bursts().Shots(ctx(t), []string{b.ID})
		require.NoError(t, err)
		require.Len(t, got, 1)
		require.True(t, got[0].Excluded)
		require.Nil(t, got[0].Quality)
		require.Empty(t, got[0].PHash)
		write(t, s, func(r store.Repos) error { return r.Assets().Delete(ctx(t), []string{b.ID}) })
		got, err = s.Read().Bursts().Shots(ctx(t), []string{b.ID})
		require.NoError(t, err)
		require.Empty(t, got, "the exclusion went with its asset")
	}},
}
