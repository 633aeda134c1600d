package search

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestQueryWordsSplitLikeTheIndex(t *testing.T) {
	for q, want := range map[string][]string{
		"Kyoto":                     {"kyoto"},
		"  Zürich, Crème-brûlée!  ": {"zurich", "creme", "brulee"},
		"IMG_0042.JPG":              {"img", "0042", "jpg"},
		"photos of my dog":          {"dog"},
		"the":                       {"the"},
		"dog dog cat":               {"dog", "cat"},
		"東京 タワー":                    {"東京", "タワー"},
		"":                          nil,
	} {
		require.Equal(t, want, queryWords(q), "%q", q)
	}
}

func TestOneEditCoversTheTypingSlips(t *testing.T) {
	edits := oneEdit("kyoot")
	for _, want := range []string{"kyoto", "kyot", "kyooto", "kyoat", "yoot"} {
		require.Contains(t, edits, want)
	}
	require.NotContains(t, edits, "kyoot")
	require.Equal(t, "ykoot", edits[0], "transpositions first")
	seen := map[string]bool{}
	for _, e := range edits {
		require.False(t, seen[e], "distinct: %s", e)
		seen[e] = true
	}
}
