// Package devseed fills a library with realistic asset rows for development
// and benchmarks: capture times over ten years clustered by day, season and
// session, known and unknown offsets, coordinates around about fifty cities
// (some beside the antimeridian), videos, ratings and trashed assets.
//
// Rows go through store.Store like any other write, so every index and the
// spatial table are maintained as they would be for uploads. Seeded assets
// have no files on disk (listing and filtering never read them) and write
// no change events: a million asset.created events describe nothing anyone
// needs to catch up on.
package devseed

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// DefaultBatch is how many assets one transaction writes: large enough that
// commits do not dominate, small enough to let other writers in between.
const DefaultBatch = 5000

// Options says what to seed.
type Options struct {
	LibraryID string
	// Assets is how many assets to create.
	Assets int
	// Batch is the number of assets per transaction (DefaultBatch if 0).
	Batch int
	// Seed makes the generated data reproducible (ids and creation times
	// still come from the clock); 0 picks a random one, so seeding the same
	// library twice does not repeat checksums.
	Seed uint64
	// End is the latest capture day; time.Now if zero.
	End time.Time
	// Now is the clock for ids and creation times; time.Now if nil.
	Now func() time.Time
	// Progress, when set, is called after each committed batch.
	Progress func(done int)
	// People, when above 0, names that many people in the library and
	// gives a share of the photos faces of them (devseed/people.go).
	People int
}

// Result reports a finished seed.
type Result struct {
	Assets  int // created, also when Seed fails part-way
	Elapsed time.Duration
}

// PerSecond is the seeding rate.
func (r Result) PerSecond() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Assets) / r.Elapsed.Seconds()
}

// Seed adds opts.Assets generated assets to the library, attributed to its
// owner, in transactions of opts.Batch, and charges their sizes to the
// owner's storage. A failure stops at a batch boundary; the batches
// committed before it stay.
func Seed(ctx context.Context, st store.Store, opts Options) (Result, error) {
	if opts.Assets < 0 {
		return Result{}, errors.New("seed: the number of assets must not be negative")
	}
	batch := opts.Batch
	if batch <= 0 {
		batch = DefaultBatch
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	end := opts.End
	if end.IsZero() {
		end = now()
	}
	lib, err := st.Read().Libraries().Get(ctx, opts.LibraryID)
	if err != nil {
		return Result{}, fmt.Errorf("seed library %s: %w", opts.LibraryID, err)
	}
	seed := opts.Seed
	for seed == 0 {
		seed = rand.Uint64()
	}
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	g := newGenerator(r, rand.New(rand.NewPCG(seed^0x5eed7e47, seed)), lib.ID, lib.OwnerID, end, now)
	started := time.Now()
	people, err := newCast(ctx, st, rand.New(rand.NewPCG(seed^0xface, seed)), lib.ID, opts.People, now())
	if err != nil {
		return Result{}, fmt.Errorf("seed people: %w", err)
	}
	done := 0
	for done < opts.Assets {
		n := min(batch, opts.Assets-done)
		err := st.InTx(ctx, func(repos store.Repos) error {
			var bytes int64
			for range n {
				a := g.next()
				if err := repos.Assets().Create(ctx, a); err != nil {
					return err
				}
				for _, f := range people.faces(a, a.CreatedAt) {
					if err := repos.Faces().Create(ctx, &f); err != nil {
						return err
					}
				}
				bytes += a.OriginalSize
			}
			return repos.Storage().Add(ctx, lib.OwnerID, bytes)
		})
		if err != nil {
			return Result{Assets: done, Elapsed: time.Since(started)}, fmt.Errorf("seed assets %d to %d: %w", done+1, done+n, err)
		}
		done += n
		if opts.Progress != nil {
			opts.Progress(done)
		}
	}
	return Result{Assets: done, Elapsed: time.Since(started)}, nil
}

// FirstOwnedLibrary returns the oldest live library the user owns: the one
// every account starts with, unless it was trashed.
func FirstOwnedLibrary(ctx context.Context, st store.Store, userID string) (*catalog.Library, error) {
	ms, err := st.Read().Libraries().LiveMemberships(ctx, userID)
	if err != nil {
		return nil, fmt.Errorf("list libraries of %s: %w", userID, err)
	}
	for _, m := range ms { // in order of creation
		if m.Library.OwnerID == userID {
			return &m.Library, nil
		}
	}
	return nil, fmt.Errorf("user %s owns no live library: %w", userID, catalog.ErrNotFound)
}
