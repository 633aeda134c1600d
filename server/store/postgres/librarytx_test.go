package postgres_test

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// TestStorageAddOrdersTheOwnersLibraries: transactions of two libraries of
// one owner run at once, but an Add to the owner's usage waits for the
// other transaction's Add to commit, and the Used after it counts both, so
// the quota check of the asset service (add, then check the sum) holds
// across libraries.
func TestStorageAddOrdersTheOwnersLibraries(t *testing.T) {
	s := openStore(t)
	owner := makeUsers(t, s, 1)[0]
	libs := make([]string, 2)
	require.NoError(t, s.InTx(t.Context(), func(r store.Repos) error {
		for i := range libs {
			at := base.Add(time.Duration(i) * time.Minute)
			l := &catalog.Library{ID: catalog.NewID(catalog.PrefixLibrary, at), Name: string(rune('A' + i)),
				OwnerID: owner.ID, CreatedAt: at, UpdatedAt: at}
			if err := r.Libraries().Create(t.Context(), l); err != nil {
				return err
			}
			libs[i] = l.ID
		}
		return nil
	}))
	added, release, firstDone := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	let := sync.OnceFunc(func() { close(release) })
	t.Cleanup(let) // a failed test must not leave the first transaction open
	go func() {
		firstDone <- s.InLibraryTx(t.Context(), libs[0], func(r store.Repos) error {
			if err := r.Storage().Add(t.Context(), owner.ID, 100); err != nil {
				return err
			}
			close(added)
			<-release
			return nil
		})
	}()
	<-added
	var seen int64
	secondDone := make(chan error, 1)
	go func() {
		secondDone <- s.InLibraryTx(t.Context(), libs[1], func(r store.Repos) error {
			if err := r.Storage().Add(t.Context(), owner.ID, 10); err != nil {
				return err
			}
			var err error
			seen, err = r.Storage().Used(t.Context(), owner.ID)
			return err
		})
	}()
	select {
	case err := <-secondDone:
		require.FailNow(t, "the second library's Add did not wait for the first's commit", "err: %v", err)
	case <-time.After(300 * time.Millisecond):
	}
	let()
	require.NoError(t, <-firstDone)
	require.NoError(t, <-secondDone)
	require.EqualValues(t, 110, seen, "the sum checked after the Add counts the other library's charge")
}
