package assets

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"
)

// orphanAge is how old an unreferenced original must be before the start-up
// sweep removes it; younger ones may belong to an upload in flight in
// another process.
const orphanAge = 10 * time.Minute

// Recover runs at start: it removes temporary files a crash left, finishes
// interrupted deletions from the journal, and sweeps originals whose row
// never committed. alone says no other process uses the data directory
// (see app's data lock): then leftovers of any age go; otherwise only those
// older than orphanAge, which cannot be another process's upload in flight.
// With the blobs in a bucket (shared with other hosts) the sweep keeps the
// orphanAge margin even alone. The orphan sweep looks up every stored
// original, so it runs only after an unclean stop.
func (s *Service) Recover(ctx context.Context, log *slog.Logger, alone, unclean bool) error {
	tempAge, sweepAge := orphanAge, orphanAge
	if alone {
		tempAge = 0
		if !s.blobs.Remote() {
			// A bucket is shared by processes on other hosts, which the
			// data directory's lock knows nothing of: an original younger
			// than orphanAge may be their upload in flight.
			sweepAge = 0
		}
	}
	tmp, err := s.blobs.CleanTemp(tempAge)
	if err != nil {
		return fmt.Errorf("clean temporary files: %w", err)
	}
	s.DrainJournal(ctx)
	orphans := 0
	if unclean {
		if orphans, err = s.SweepOrphans(ctx, sweepAge); err != nil {
			return fmt.Errorf("sweep orphan files: %w", err)
		}
		versions, err := s.SweepVersionOrphans(ctx, sweepAge)
		if err != nil {
			return fmt.Errorf("sweep orphan version files: %w", err)
		}
		orphans += versions
	}
	if tmp > 0 || orphans > 0 {
		log.Info("recovered after an unclean stop", "component", "assets", "temp_files", tmp, "orphan_files", orphans)
	}
	return nil
}

// RunPurge purges the trash now and then every interval, until the
// returned stop function is called (it waits for a run in progress).
func (s *Service) RunPurge(log *slog.Logger, interval time.Duration) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			if n, err := s.PurgeTrash(ctx); err != nil && ctx.Err() == nil {
				log.Error("purge trash", "component", "assets", "err", err)
			} else if n > 0 {
				log.Info("purged trash", "component", "assets", "assets", n)
			}
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	return func() { cancel(); wg.Wait() }
}
