package storetest

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

func newTag(libraryID, value string, m int) *catalog.Tag {
	return &catalog.Tag{ID: catalog.NewID(catalog.PrefixTag, at(m)), LibraryID: libraryID, Value: value,
		CreatedAt: at(m), UpdatedAt: at(m)}
}

func upsertTag(t *testing.T, s store.Store, tag *catalog.Tag) *catalog.Tag {
	t.Helper()
	var got *catalog.Tag
	write(t, s, func(r store.Repos) error {
		var err error
		got, err = r.Tags().Upsert(ctx(t), tag)
		return err
	})
	return got
}

var tagCases = []testCase{
	{"an upsert of an existing value answers the stored tag, per library", func(t *testing.T, s store.Store) {
		u := makeUser(t, s, "tags@example.com")
		lib, other := makeLibrary(t, s, u.ID, "One", 1), makeLibrary(t, s, u.ID, "Two", 2)
		first := upsertTag(t, s, newTag(lib.ID, "Travel/2024", 3))
		require.Equal(t, newTag(lib.ID, "", 3).CreatedAt, first.CreatedAt)
		again := upsertTag(t, s, newTag(lib.ID, "Travel/2024", 4))
		require.Equal(t, first, again)
		elsewhere := upsertTag(t, s, newTag(other.ID, "Travel/2024", 5))
		require.NotEqual(t, first.ID, elsewhere.ID)
		upsertTag(t, s, newTag(lib.ID, "Family", 6))

		list, err := s.Read().Tags().List(ctx(t), lib.ID)
		require.NoError(t, err)
		require.Equal(t, []string{"Family", "Travel/2024"}, []string{list[0].Value, list[1].Value})
		got, err := s.Read().Tags().Get(ctx(t), first.ID)
		require.NoError(t, err)
		require.Equal(t, first, got)
		_, err = s.Read().Tags().Get(ctx(t), "tag_01h0000000000000000000000a")
		requireKind(t, err, catalog.ErrNotFound)
	}},
	{"a link is made once and goes with its asset", func(t *testing.T, s store.Store) {
		u := makeUser(t, s, "links@example.com")
		lib := makeLibrary(t, s, u.ID, "One", 1)
		a1, a2 := makeAsset(t, s, lib.ID, u.ID, 2), makeAsset(t, s, lib.ID, u.ID, 3)
		b := upsertTag(t, s, newTag(lib.ID, "b", 4))
		a := upsertTag(t, s, newTag(lib.ID, "a", 5))
		var linked []string
		write(t, s, func(r store.Repos) error {
			var err error
			linked, err = r.Tags().Link(ctx(t), b.ID, []string{a1, a2, a1}, at(6))
			return err
		})
		require.Equal(t, []string{a1, a2}, linked)
		write(t, s, func(r store.Repos) error {
			var err error
			if linked, err = r.Tags().Link(ctx(t), b.ID, []string{a2}, at(7)); err != nil {
				return err
			}
			_, err = r.Tags().Link(ctx(t), a.ID, []string{a1}, at(7))
			return err
		})
		require.Empty(t, linked)
		tags, err := s.Read().Tags().ForAsset(ctx(t), a1)
		require.NoError(t, err)
		require.Equal(t, []string{"a", "b"}, []string{tags[0].Value, tags[1].Value})

		write(t, s, func(r store.Repos) error { return r.Assets().Delete(ctx(t), []string{a1}) })
		tags, err = s.Read().Tags().ForAsset(ctx(t), a1)
		require.NoError(t, err)
		require.Empty(t, tags)
		tags, err = s.Read().Tags().ForAsset(ctx(t), a2)
		require.NoError(t, err)
		require.Len(t, tags, 1)
	}},
}
