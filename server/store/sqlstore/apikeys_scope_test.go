package sqlstore

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
)

func TestQualify(t *testing.T) {
	require.Equal(t, "u.id, u.email, u.created_at", qualify("id, email,\n\tcreated_at", "u"))
}

// TestScopeRoundTrip: every library (nil), none ([]) and a list each come
// back as they went in.
func TestScopeRoundTrip(t *testing.T) {
	for _, libs := range [][]string{nil, {}, {"lib_a", "lib_b"}} {
		in := catalog.Scope{Actions: []catalog.Action{catalog.ActionAssetRead}, LibraryIDs: libs}
		actions, ids, err := encodeScope(in)
		require.NoError(t, err)
		require.Equal(t, libs == nil, ids == nil, "NULL stands for every library")
		out, err := decodeScope("key_x", actions, ids)
		require.NoError(t, err)
		require.Equal(t, in, out)
	}
	_, err := decodeScope("key_x", "not json", nil)
	require.ErrorContains(t, err, "api key key_x actions")
}
