package mcpapi

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/mcp"
)

// locOf is the location of a validation error's only field.
func locOf(t *testing.T, err error) []any {
	t.Helper()
	var ve *catalog.ValidationError
	require.True(t, errors.As(err, &ve), "want a validation error, got %v", err)
	require.Len(t, ve.Fields, 1)
	return ve.Fields[0].Loc
}

func TestFilterReadsAToolsArguments(t *testing.T) {
	f, err := filter(mcp.Query{MediaType: "video", AlbumID: "album_1", PersonIDs: []string{"person_b", "person_a", "person_b"},
		Center: "2.35,48.85", Radius: 1500})
	require.NoError(t, err)
	require.Equal(t, catalog.MediaVideo, f.MediaType)
	require.Equal(t, "album_1", f.AlbumID)
	require.Equal(t, []string{"person_a", "person_b"}, f.PersonIDs, "sorted, each once")
	require.NotNil(t, f.Location)
}

func TestFilterRefusesWhatTheQueryStringRefuses(t *testing.T) {
	many := make([]string, 101)
	for i := range many {
		many[i] = fmt.Sprintf("person_%d", i)
	}
	for _, tc := range []struct {
		name string
		q    mcp.Query
		loc  []any
	}{
		{"a media type that is neither image nor video", mcp.Query{MediaType: "audio"}, []any{"arguments", "media_type"}},
		{"more than 100 people", mcp.Query{PersonIDs: many}, []any{"arguments", "person_ids"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := filter(tc.q)
			require.Equal(t, tc.loc, locOf(t, err))
		})
	}
}

// The aggregate tools check their own arguments before any service call.
func TestAggregateToolsCheckTheirArguments(t *testing.T) {
	b, ctx := backend{d: &Deps{}}, context.Background()
	_, err := b.Counts(ctx, mcp.Query{}, "week", "", 10)
	require.Equal(t, []any{"arguments", "bucket"}, locOf(t, err))
	_, err = b.Counts(ctx, mcp.Query{}, "month", "2024", 10)
	require.Equal(t, []any{"arguments", "cursor"}, locOf(t, err))
	_, err = b.GeoClusters(ctx, mcp.Query{}, 1)
	require.Equal(t, []any{"arguments", "bbox"}, locOf(t, err))
	_, err = b.GeoClusters(ctx, mcp.Query{BBox: "0,0,10,10"}, 0)
	require.Equal(t, []any{"arguments", "cell_size"}, locOf(t, err))
}
