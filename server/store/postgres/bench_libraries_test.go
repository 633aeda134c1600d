package postgres

// Write throughput of transactions held open for a while (a 2 ms sleep
// inside stands for a transaction's round trips to a database across a
// network, or a file renamed before the commit), four writers at once: all
// in InTx, all in one library, and spread over two and four libraries.
//
//	go test ./server/store/postgres -run '^$' -bench LibraryWrites
//
// InTx and one library run one transaction at a time; each further
// library adds a writer that runs beside them, until the four writers are
// all busy.

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

func BenchmarkLibraryWrites(b *testing.B) {
	const writers = 4
	db := openMigrated(b)
	ctx := context.Background()
	at := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	owner := &catalog.User{ID: catalog.NewID(catalog.PrefixUser, at), Email: "bench@example.com", IsActive: true,
		CreatedAt: at, UpdatedAt: at}
	libs := make([]string, writers)
	if err := db.InTx(ctx, func(r store.Repos) error {
		if err := r.Users().Create(ctx, owner); err != nil {
			return err
		}
		for i := range libs {
			l := &catalog.Library{ID: catalog.NewID(catalog.PrefixLibrary, at.Add(time.Duration(i)*time.Minute)),
				Name: fmt.Sprintf("library %d", i), OwnerID: owner.ID, CreatedAt: at, UpdatedAt: at}
			if err := r.Libraries().Create(ctx, l); err != nil {
				return err
			}
			libs[i] = l.ID
		}
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	write := func(r store.Repos, lib string, n int) error {
		if _, err := r.Tags().Upsert(ctx, &catalog.Tag{ID: catalog.NewID(catalog.PrefixTag, at), LibraryID: lib,
			Value: fmt.Sprintf("tag %d", n), CreatedAt: at, UpdatedAt: at}); err != nil {
			return err
		}
		if err := r.Events().Append(ctx, &catalog.Event{Type: "tag.created", LibraryID: lib,
			ResourceID: fmt.Sprint(n), CreatedAt: at}); err != nil {
			return err
		}
		time.Sleep(2 * time.Millisecond)
		return nil
	}
	for _, mode := range []struct {
		name      string
		libraries int // 0: InTx
	}{{"InTx", 0}, {"one library", 1}, {"two libraries", 2}, {"four libraries", 4}} {
		b.Run(mode.name, func(b *testing.B) {
			var wg sync.WaitGroup
			errs := make(chan error, writers)
			start := time.Now()
			for w := range writers {
				wg.Go(func() {
					for n := w; n < b.N; n += writers {
						var err error
						if mode.libraries == 0 {
							err = db.InTx(ctx, func(r store.Repos) error { return write(r, libs[0], n) })
						} else {
							lib := libs[w%mode.libraries]
							err = db.InLibraryTx(ctx, lib, func(r store.Repos) error { return write(r, lib, n) })
						}
						if err != nil {
							errs <- err
							return
						}
					}
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				b.Fatal(err)
			}
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "tx/s")
		})
	}
}
