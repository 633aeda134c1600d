package storetest

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// putIfAbsent calls PutIfAbsent in its own transaction.
func putIfAbsent(t *testing.T, s store.Store, key string, value []byte) []byte {
	t.Helper()
	var stored []byte
	write(t, s, func(r store.Repos) error {
		var err error
		stored, err = r.Settings().PutIfAbsent(ctx(t), key, value)
		return err
	})
	return stored
}

var settingCases = []testCase{
	{"an unknown key is not found", func(t *testing.T, s store.Store) {
		putIfAbsent(t, s, "other", []byte("x"))
		_, err := s.Read().Settings().Get(ctx(t), "signing_key")
		requireKind(t, err, catalog.ErrNotFound)
	}},
	{"put if absent stores the value and returns it", func(t *testing.T, s store.Store) {
		value := []byte{0, 1, 2, 0xff}
		require.Equal(t, value, putIfAbsent(t, s, "signing_key", value))
		got, err := s.Read().Settings().Get(ctx(t), "signing_key")
		require.NoError(t, err)
		require.Equal(t, value, got)
	}},
	{"put if absent keeps the first value", func(t *testing.T, s store.Store) {
		putIfAbsent(t, s, "signing_key", []byte("first"))
		require.Equal(t, []byte("first"), putIfAbsent(t, s, "signing_key", []byte("second")))
		got, err := s.Read().Settings().Get(ctx(t), "signing_key")
		require.NoError(t, err)
		require.Equal(t, []byte("first"), got)
	}},
	{"keys are independent", func(t *testing.T, s store.Store) {
		putIfAbsent(t, s, "a", []byte("1"))
		require.Equal(t, []byte("2"), putIfAbsent(t, s, "b", []byte("2")))
	}},
}
