package storetest

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// putStack saves a manual stack of the assets (at least two) with a cover,
// created at minute m.
func putStack(t *testing.T, s store.Store, cover *catalog.Asset, m int, assets ...*catalog.Asset) *catalog.Stack {
	t.Helper()
	st := &catalog.Stack{ID: catalog.NewID(catalog.PrefixStack, at(m)), LibraryID: cover.LibraryID,
		CoverAssetID: cover.ID, Source: catalog.StackManual, CreatedAt: at(m), UpdatedAt: at(m)}
	for _, a := range assets {
		st.AssetIDs = append(st.AssetIDs, a.ID)
	}
	write(t, s, func(r store.Repos) error { return r.Stacks().Create(ctx(t), st) })
	return st
}

func getStack(t *testing.T, s store.Store, id string) *catalog.Stack {
	t.Helper()
	st, err := s.Read().Stacks().Get(ctx(t), id)
	require.NoError(t, err)
	return st
}

// timeline lists a library's assets in a state as collapsed lists show
// them (or a stack's members), oldest first.
func timeline(t *testing.T, s store.Store, f query.AssetFilter) []string {
	t.Helper()
	f.Asc = true
	items, more, err := s.Read().Assets().List(ctx(t), f, query.Page{Limit: 100})
	require.NoError(t, err)
	require.False(t, more)
	return idsOf(items, assetID)
}

func stackID(st catalog.Stack) string { return st.ID }

var stackCases = []testCase{
	{"a stack reads back with its members in capture order", func(t *testing.T, s store.Store) {
		w := newOrganizeWorld(t, s)
		a := w.putAsset(t, s, w.lib, may(2), nil)
		b := w.putAsset(t, s, w.lib, may(1), nil)
		st := putStack(t, s, a, 5, a, b)
		st.AssetIDs = []string{b.ID, a.ID}
		require.Equal(t, st, getStack(t, s, st.ID))
		many, err := s.Read().Stacks().GetMany(ctx(t), []string{st.ID, catalog.NewID(catalog.PrefixStack, base)})
		require.NoError(t, err)
		require.Equal(t, []catalog.Stack{*st}, many)
		_, err = s.Read().Stacks().Get(ctx(t), catalog.NewID(catalog.PrefixStack, base))
		requireKind(t, err, catalog.ErrNotFound)
	}},
	{"an asset is in at most one stack; a conflict writes nothing", func(t *testing.T, s store.Store) {
		w := newOrganizeWorld(t, s)
		a := w.putAsset(t, s, w.lib, may(1), nil)
		b := w.putAsset(t, s, w.lib, may(2), nil)
		c := w.putAsset(t, s, w.lib, may(3), nil)
		first := putStack(t, s, a, 5, a, b)
		second := &catalog.Stack{ID: catalog.NewID(catalog.PrefixStack, at(6)), LibraryID: w.lib.ID, CoverAssetID: c.ID,
			AssetIDs: []string{c.ID, b.ID}, Source: catalog.StackAuto, CreatedAt: at(6), UpdatedAt: at(6)}
		requireKind(t, writeErr(t, s, func(r store.Repos) error { return r.Stacks().Create(ctx(t), second) }), catalog.ErrConflict)
		_, err := s.Read().Stacks().Get(ctx(t), second.ID)
		requireKind(t, err, catalog.ErrNotFound)
		got, err := s.Read().Assets().Get(ctx(t), c.ID)
		require.NoError(t, err)
		require.Nil(t, got.StackID)
		first.AssetIDs = append(first.AssetIDs, c.ID)
		third := putStack(t, s, c, 7, c, w.putAsset(t, s, w.lib, may(4), nil))
		requireKind(t, writeErr(t, s, func(r store.Repos) error { return r.Stacks().Update(ctx(t), first) }), catalog.ErrConflict)
		require.Len(t, getStack(t, s, third.ID).AssetIDs, 2)
	}},
	{"collapsed lists show a stack's cover and its trashed members", func(t *testing.T, s store.Store) {
		w := newOrganizeWorld(t, s)
		a := w.putAsset(t, s, w.lib, may(1), nil)
		b := w.putAsset(t, s, w.lib, may(2), nil)
		c := w.putAsset(t, s, w.lib, may(3), nil)
		lone := w.putAsset(t, s, w.lib, may(4), nil)
		st := putStack(t, s, b, 5, a, b, c)
		lib := w.lib.ID
		require.Equal(t, []string{b.ID, lone.ID}, timeline(t, s, query.AssetFilter{LibraryID: lib}))
		require.Equal(t, []string{a.ID, b.ID, c.ID}, timeline(t, s, query.AssetFilter{LibraryID: lib, StackID: st.ID}))

		setTrashed(t, s, true, c)
		write(t, s, func(r store.Repos) error { return r.Stacks().Update(ctx(t), st) }) // as the service does
		require.Equal(t, []string{b.ID, lone.ID}, timeline(t, s, query.AssetFilter{LibraryID: lib}))
		require.Equal(t, []string{c.ID}, timeline(t, s, query.AssetFilter{LibraryID: lib, State: query.StateTrashed}))
		require.Equal(t, []string{b.ID, c.ID, lone.ID}, timeline(t, s, query.AssetFilter{LibraryID: lib, State: query.StateAll}))

		got, err := s.Read().Assets().Get(ctx(t), b.ID)
		require.NoError(t, err)
		require.Equal(t, []any{st.ID, 2, catalog.StackManual}, []any{*got.StackID, got.StackSize, got.StackSource},
			"the size counts members in the asset's own state")
		got, err = s.Read().Assets().Get(ctx(t), c.ID)
		require.NoError(t, err)
		require.Equal(t, 1, got.StackSize)
		got, err = s.Read().Assets().Get(ctx(t), lone.ID)
		require.NoError(t, err)
		require.Equal(t, []any{(*string)(nil), 0, catalog.StackSource("")}, []any{got.StackID, got.StackSize, got.StackSource})
	}},
	{"asset writes never touch membership", func(t *testing.T, s store.Store) {
		w := newOrganizeWorld(t, s)
		a := w.putAsset(t, s, w.lib, may(1), nil)
		b := w.putAsset(t, s, w.lib, may(2), nil)
		st := putStack(t, s, a, 5, a, b)
		b.Capture.Wall = may(9) // b was loaded before it joined: StackID nil
		write(t, s, func(r store.Repos) error { return r.Assets().Update(ctx(t), b) })
		require.Equal(t, []string{a.ID, b.ID}, getStack(t, s, st.ID).AssetIDs)
	}},
	{"update changes members and cover; leavers are unstacked", func(t *testing.T, s store.Store) {
		w := newOrganizeWorld(t, s)
		a := w.putAsset(t, s, w.lib, may(1), nil)
		b := w.putAsset(t, s, w.lib, may(2), nil)
		c := w.putAsset(t, s, w.lib, may(3), nil)
		st := putStack(t, s, a, 5, a, b)
		st.AssetIDs, st.CoverAssetID, st.UpdatedAt = []string{b.ID, c.ID}, c.ID, at(9)
		write(t, s, func(r store.Repos) error { return r.Stacks().Update(ctx(t), st) })
		require.Equal(t, st, getStack(t, s, st.ID))
		require.Equal(t, []string{a.ID, c.ID}, timeline(t, s, query.AssetFilter{LibraryID: w.lib.ID}))
		got, err := s.Read().Assets().Get(ctx(t), a.ID)
		require.NoError(t, err)
		require.Nil(t, got.StackID)
	}},
	{"delete unstacks every member", func(t *testing.T, s store.Store) {
		w := newOrganizeWorld(t, s)
		a := w.putAsset(t, s, w.lib, may(1), nil)
		b := w.putAsset(t, s, w.lib, may(2), nil)
		st := putStack(t, s, a, 5, a, b)
		setTrashed(t, s, true, b)
		write(t, s, func(r store.Repos) error { return r.Stacks().Update(ctx(t), st) })
		write(t, s, func(r store.Repos) error { return r.Stacks().Delete(ctx(t), st.ID) })
		requireKind(t, writeErr(t, s, func(r store.Repos) error { return r.Stacks().Delete(ctx(t), st.ID) }), catalog.ErrNotFound)
		require.Equal(t, []string{a.ID}, timeline(t, s, query.AssetFilter{LibraryID: w.lib.ID}))
		require.Equal(t, []string{b.ID}, timeline(t, s, query.AssetFilter{LibraryID: w.lib.ID, State: query.StateTrashed}))
		setTrashed(t, s, false, b)
		require.Equal(t, []string{a.ID, b.ID}, timeline(t, s, query.AssetFilter{LibraryID: w.lib.ID}))
	}},
	{"stack lists page newest first, per library", func(t *testing.T, s store.Store) {
		w := newOrganizeWorld(t, s)
		var want []string
		for i := range 4 {
			a := w.putAsset(t, s, w.lib, may(1+2*i), nil)
			b := w.putAsset(t, s, w.lib, may(2+2*i), nil)
			want = append([]string{putStack(t, s, a, 10+i, a, b).ID}, want...)
		}
		x := w.putAsset(t, s, w.lib2, may(1), nil)
		putStack(t, s, x, 20, x, w.putAsset(t, s, w.lib2, may(2), nil))
		checkPaging(t, want, stackID, func(p query.Page) ([]catalog.Stack, bool, error) {
			return s.Read().Stacks().List(ctx(t), query.StackFilter{LibraryID: w.lib.ID}, p)
		})
	}},
}
