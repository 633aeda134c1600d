package postgres

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/store/postgres/pgtest"
)

// TestSearchWordsSplitLikeTheQuery checks the words 0013_search indexes against
// the words the search service makes of a query (search.queryWords: letters
// and digits of any script, case and diacritics folded, anything else
// separating), and the stems that make inflections one word.
func TestSearchWordsSplitLikeTheQuery(t *testing.T) {
	ctx := t.Context()
	db, err := Open(ctx, pgtest.NewURL(t, func(ctx context.Context, url string) error {
		db, err := Open(ctx, url)
		if err != nil {
			return err
		}
		return db.Close()
	}))
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, db.Close()) })
	for text, want := range map[string]string{
		"  Zürich, Crème-brûlée!  ":     "'brule':3 'creme':2 'zurich':1",
		"IMG_0042.JPG":                  "'0042':2 'img':1 'jpg':3",
		"東京 タワー":                        "'タワー':2 '東京':1",
		"KYÖTO":                         "'kyoto':1",
		"XF16-55mmF2.8 R LM WR":         "'55mmf2':2 '8':3 'lm':5 'r':4 'wr':6 'xf16':1",
		"sunsets over the lighthouses":  "'lighthous':4 'over':2 'sunset':1 'the':3",
		"«quoted» naïve—dash O'Brien's": "'brien':5 'dash':3 'naiv':2 'o':4 'quot':1 's':6",
	} {
		var got string
		require.NoError(t, db.pool.QueryRow(ctx, `SELECT to_tsvector('photoctl_search', search_fold($1))::text`, text).Scan(&got))
		require.Equal(t, want, got, "%q", text)
	}
	for _, c := range []struct {
		word   string
		prefix bool
		want   string
	}{{"sunsets", false, "'sunset'"}, {"light", true, "'light':*"}, {"Zürich", false, "'zurich'"}, {"-", false, ""}} {
		var got *string
		require.NoError(t, db.pool.QueryRow(ctx, `SELECT search_word_query($1, $2)::text`, c.word, c.prefix).Scan(&got))
		if c.want == "" {
			require.Nil(t, got, "nothing is left of %q: it matches nothing", c.word)
			continue
		}
		require.NotNil(t, got)
		require.Equal(t, c.want, *got)
	}
}
