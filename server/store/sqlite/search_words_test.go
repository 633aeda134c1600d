package sqlite

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// TestHasLongerReadsTheWordsAsTyped: the index's word lists answer
// whether a longer word begins with a word as typed, where a prefix query
// stems it first ("imes"* is "im"*, which begins "img").
func TestHasLongerReadsTheWordsAsTyped(t *testing.T) {
	f := newAggFixture(t)
	a := f.newAsset(f.lib, time.Date(2024, 6, 1, 12, 0, 0, 0, time.UTC), nil, catalog.MediaImage, nil, nil)
	desc := "sunsets"
	a.Description, a.OriginalFileName = &desc, "IMG_0001.JPG"
	require.NoError(t, f.db.InTx(t.Context(), func(r store.Repos) error { return r.Assets().Create(t.Context(), a) }))
	s := f.db.Read().Search()
	stemmed, err := s.HasWord(t.Context(), "imes", true)
	require.NoError(t, err)
	require.True(t, stemmed, "the prefix query stems imes to im, which begins img")
	for word, want := range map[string]bool{"imes": false, "im": true, "img": false, "sun": true, "sunset": false, "2": false} {
		got, err := s.HasLonger(t.Context(), word)
		require.NoError(t, err)
		require.Equal(t, want, got, word)
	}
}
