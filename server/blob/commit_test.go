package blob_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
)

func TestCommitIsAtomic(t *testing.T) {
	s, _ := newStore(t)
	const key = "originals/asset_1/original"
	data := randomBytes(t, 8<<20)
	w, err := s.Create(0)
	require.NoError(t, err)
	defer w.Abort()
	_, err = w.Write(data[:len(data)/2])
	require.NoError(t, err)
	_, err = s.Stat(key)
	require.ErrorIs(t, err, catalog.ErrNotFound, "nothing is visible before commit")
	_, err = w.Write(data[len(data)/2:])
	require.NoError(t, err)

	// A reader polling during the commit sees nothing or everything.
	done := make(chan struct{})
	var partial []int64
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case <-done:
				return
			default:
			}
			if f, err := s.Open(key); err == nil {
				fi, _ := f.Stat()
				if fi.Size() != int64(len(data)) {
					partial = append(partial, fi.Size())
				}
				_ = f.Close()
			}
		}
	})
	require.NoError(t, w.Commit(key))
	close(done)
	wg.Wait()
	require.Empty(t, partial)
	require.Equal(t, string(data), read(t, s, key))
}

func TestCommitReplacesAnExistingBlob(t *testing.T) {
	s, _ := newStore(t)
	put(t, s, "variants/a/thumbnail.webp", "old")
	put(t, s, "variants/a/thumbnail.webp", "new")
	require.Equal(t, "new", read(t, s, "variants/a/thumbnail.webp"))
}

func TestConcurrentWritersAndRemovers(t *testing.T) {
	s, root := newStore(t)
	const writers = 16
	errs := make(chan error, writers*20*2)
	var wg sync.WaitGroup
	for i := range writers {
		wg.Go(func() {
			for j := range 20 {
				// Every writer shares directories with removers, so Commit
				// races the pruning of empty directories.
				key := fmt.Sprintf("variants/asset_%d/v%d_%d", j%3, i, j)
				errs <- s.Put(key, strings.NewReader(key))
				if j%2 == 1 {
					errs <- s.Remove(key)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	count := 0
	require.NoError(t, s.Walk("", func(key string, size int64) error {
		count++
		require.Equal(t, key, read(t, s, key))
		return nil
	}))
	require.Equal(t, writers*10, count)
	require.Empty(t, entries(t, filepath.Join(root, "tmp")))
}

func TestSyncBeforeCommitKeepsEveryByte(t *testing.T) {
	s, _ := newStore(t)
	w, err := s.Create(0)
	require.NoError(t, err)
	_, err = w.Write([]byte("synced "))
	require.NoError(t, err)
	require.NoError(t, w.Sync())
	require.NoError(t, w.Sync(), "a second sync with nothing new is a no-op")
	_, err = w.Write([]byte("and later"))
	require.NoError(t, err)
	require.NoError(t, w.Commit("versions/a/v1"))
	require.Equal(t, "synced and later", read(t, s, "versions/a/v1"))
	require.Error(t, w.Sync(), "a finished writer cannot sync")
}
