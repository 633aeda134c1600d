package importer

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestIndexRemembersAcrossOpens(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "x.log")
	x, err := OpenIndex(path)
	require.NoError(t, err)
	mt := time.Unix(1700000000, 123)
	sum := sha256.Sum256([]byte("a"))
	require.NoError(t, x.Add("a.jpg", 10, mt, sum))
	require.NoError(t, x.Close(false))

	fi, err := os.Stat(path)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), fi.Mode().Perm())

	x, err = OpenIndex(path)
	require.NoError(t, err)
	defer x.Close(false)
	got, ok := x.Lookup("a.jpg", 10, mt)
	require.True(t, ok)
	require.Equal(t, sum, got)
	_, ok = x.Lookup("a.jpg", 11, mt)
	require.False(t, ok, "size changed")
	_, ok = x.Lookup("a.jpg", 10, mt.Add(time.Nanosecond))
	require.False(t, ok, "modification time changed")
}

func TestIndexDropsATornTailAndKeepsTheRest(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.log")
	x, err := OpenIndex(path)
	require.NoError(t, err)
	mt := time.Unix(1700000000, 0)
	for i := range 3 {
		require.NoError(t, x.Add(fmt.Sprint(i), int64(i), mt, sha256.Sum256([]byte{byte(i)})))
	}
	require.NoError(t, x.Close(false))
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, data[:len(data)-5], 0o600)) // a kill mid-write

	x, err = OpenIndex(path)
	require.NoError(t, err)
	_, ok := x.Lookup("1", 1, mt)
	require.True(t, ok)
	_, ok = x.Lookup("2", 2, mt)
	require.False(t, ok, "the torn record is dropped")
	require.NoError(t, x.Add("3", 3, mt, sha256.Sum256([]byte{3})))
	require.NoError(t, x.Close(false))

	x, err = OpenIndex(path)
	require.NoError(t, err)
	defer x.Close(false)
	_, ok = x.Lookup("3", 3, mt)
	require.True(t, ok, "records appended after the repair are readable")
}

func TestIndexRefusesAForeignFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.log")
	require.NoError(t, os.WriteFile(path, []byte("something else entirely"), 0o600))
	_, err := OpenIndex(path)
	require.ErrorContains(t, err, "not a photoctl upload index")
}

func TestIndexCompactsToTheFilesSeen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.log")
	x, err := OpenIndex(path)
	require.NoError(t, err)
	mt := time.Unix(1700000000, 0)
	for i := range 500 {
		require.NoError(t, x.Add(fmt.Sprint(i), int64(i), mt, sha256.Sum256([]byte(fmt.Sprint(i)))))
	}
	require.NoError(t, x.Close(true))
	before, _ := os.Stat(path)

	x, err = OpenIndex(path)
	require.NoError(t, err)
	_, ok := x.Lookup("7", 7, mt) // the only file still there
	require.True(t, ok)
	require.NoError(t, x.Close(true))
	after, _ := os.Stat(path)
	require.Less(t, after.Size(), before.Size()/100)

	x, err = OpenIndex(path)
	require.NoError(t, err)
	defer x.Close(false)
	_, ok = x.Lookup("7", 7, mt)
	require.True(t, ok)
	_, ok = x.Lookup("8", 8, mt)
	require.False(t, ok)
}
