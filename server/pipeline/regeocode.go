package pipeline

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/tasks"
)

// KindRegeocode is the library task that names the places of the
// library's assets with a position again (see RegeocodeLibrary).
const KindRegeocode = "regeocode"

// geocodeVersionKey prefixes the setting that records that regeocode tasks
// were queued for a version of the geocoder's data: one key per version,
// so PutIfAbsent tells the one process that first starts with it.
const geocodeVersionKey = "geocode_data_version:"

// ScheduleRegeocodes queues a regeocode task for every library holding an
// asset with a position, once per version of the geocoder's data (version:
// ingest/geocode's DataVersion), the first time a process starts with it:
// places stored before were named by other data (before towns, a photo at
// Cape Canaveral was "Florida, United States of America"). Serve and
// worker call it at start; of processes starting together one queues
// them. A regeocode already queued is kept.
func ScheduleRegeocodes(ctx context.Context, st store.Store, version string, now time.Time) error {
	stamp := []byte(now.UTC().Format(time.RFC3339Nano) + " " + catalog.NewID(catalog.PrefixTask, now))
	return st.InTx(ctx, func(r store.Repos) error {
		stored, err := r.Settings().PutIfAbsent(ctx, geocodeVersionKey+version, stamp)
		if err != nil || string(stored) != string(stamp) {
			return err // another process, or an earlier start, queued them
		}
		_, err = scheduleRegeocodes(ctx, r, now)
		return err
	})
}

// MarkGeocoded records that the places stored are this version's, so that
// no start queues regeocode tasks for it: for a library whose places were
// written otherwise than by the geocode step (photoctl dev seed's synthetic
// ones, which re-geocoding would only replace).
func MarkGeocoded(ctx context.Context, st store.Store, version string, now time.Time) error {
	return st.InTx(ctx, func(r store.Repos) error {
		_, err := r.Settings().PutIfAbsent(ctx, geocodeVersionKey+version, []byte(now.UTC().Format(time.RFC3339Nano)+" marked"))
		return err
	})
}

// Regeocode queues a regeocode task for every library holding an asset
// with a position, whatever the data's version: an administrator's
// `photoctl admin regeocode`. It returns the libraries queued.
func Regeocode(ctx context.Context, st store.Store, now time.Time) (libraries int, err error) {
	err = st.InTx(ctx, func(r store.Repos) error {
		libraries, err = scheduleRegeocodes(ctx, r, now)
		return err
	})
	return libraries, err
}

// scheduleRegeocodes queues the tasks and returns how many libraries.
func scheduleRegeocodes(ctx context.Context, r store.Repos, now time.Time) (int, error) {
	libs, err := r.Libraries().WithPositions(ctx)
	if err != nil {
		return 0, err
	}
	for _, lib := range libs {
		t := &catalog.Task{ID: catalog.NewID(catalog.PrefixTask, now), Kind: KindRegeocode,
			State: catalog.TaskQueued, LibraryID: lib, RunAfter: now, CreatedAt: now}
		if err := r.Clustering().Schedule(ctx, t); err != nil {
			return 0, fmt.Errorf("schedule regeocode of %s: %w", lib, err)
		}
	}
	return len(libs), nil
}

// regeocodeBudget bounds one run of a regeocode task, well inside the
// default task timeout (ingest.task_timeout, 10 minutes): a library whose
// places take longer to rewrite (some 6 ms an asset, so about 20,000
// assets a run) is finished by the task the run queues for it when its
// budget is spent, which skips the assets already done.
const regeocodeBudget = 2 * time.Minute

func (p *Pipeline) regeocode(ctx context.Context, t *catalog.Task) error {
	if t.AssetID != "" {
		return tasks.Permanent(errors.New("a regeocode task is a library's, not an asset's"))
	}
	done, err := p.regeocodeUntil(ctx, t.LibraryID, p.d.Now().Add(regeocodeBudget))
	if err != nil || done {
		return err
	}
	return p.d.Store.InTx(ctx, func(r store.Repos) error {
		now := p.d.Now()
		return r.Clustering().Schedule(ctx, &catalog.Task{ID: catalog.NewID(catalog.PrefixTask, now), Kind: KindRegeocode,
			State: catalog.TaskQueued, LibraryID: t.LibraryID, RunAfter: now, CreatedAt: now})
	})
}

// RegeocodeLibrary runs the geocode step again on every asset of the
// library, live or trashed, that has a position: country, state, town,
// place name and display label follow the geocoder's data of today, and
// the search text (built from them by the store) with them. An asset whose
// place comes out the same is not written; assets without a position are
// not touched. Nothing else of the ingest chain runs again. Idempotent.
func (p *Pipeline) RegeocodeLibrary(ctx context.Context, libraryID string) error {
	_, err := p.regeocodeUntil(ctx, libraryID, time.Time{})
	return err
}

// regeocodeUntil is RegeocodeLibrary that stops once deadline (when not
// zero) has passed, reporting whether it got through the library.
func (p *Pipeline) regeocodeUntil(ctx context.Context, libraryID string, deadline time.Time) (done bool, err error) {
	if err := p.d.Geocoder.Load(); err != nil {
		return false, fmt.Errorf("regeocode: %w", err)
	}
	f := query.AssetFilter{LibraryID: libraryID, State: query.StateAll, WithStacked: true,
		Location: &catalog.Location{Box: &catalog.World}}
	pg := query.Page{Limit: 200}
	for {
		list, more, err := p.d.Store.Read().Assets().List(ctx, f, pg)
		if err != nil {
			return false, err
		}
		for _, a := range list {
			// The lookup is a microsecond, a write transaction some
			// milliseconds: only an asset whose place changes is written
			// (by the geocode step, which checks again in its
			// transaction), so a run that stops early leaves its work
			// done and the next one skips it (some 50 µs an asset).
			if reflect.DeepEqual(p.placeAt(positionOf(a.Merged())), a.GeoMeta) {
				continue
			}
			if err := p.Geocode(ctx, a.ID); err != nil {
				return false, fmt.Errorf("regeocode %s: %w", a.ID, err)
			}
		}
		if !more || len(list) == 0 {
			return true, nil
		}
		if !deadline.IsZero() && p.d.Now().After(deadline) {
			return false, nil
		}
		pg.AfterID = list[len(list)-1].ID
	}
}
