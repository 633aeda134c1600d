package pipeline

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/tasks"
)

// KindRestack is the library task that holds the library's automatic
// stacks to the burst rules of today (see Restack).
const KindRestack = "restack"

// ScheduleRestacks queues a restack task for every library holding an
// automatic stack with a member whose camera evidence was never recorded:
// stacks made before bursts needed it, when a device id or a file time
// was enough to stack different photos. Serve and worker call it at start;
// once a library's restack has read its members again it is not queued
// again. A restack already queued is kept.
func ScheduleRestacks(ctx context.Context, st store.Store, now time.Time) error {
	libs, err := st.Read().Bursts().UnsettledLibraries(ctx)
	if err != nil || len(libs) == 0 {
		return err
	}
	return st.InTx(ctx, func(r store.Repos) error {
		for _, lib := range libs {
			t := &catalog.Task{ID: catalog.NewID(catalog.PrefixTask, now), Kind: KindRestack,
				State: catalog.TaskQueued, LibraryID: lib, RunAfter: now, CreatedAt: now}
			if err := r.Clustering().Schedule(ctx, t); err != nil {
				return fmt.Errorf("schedule restack of %s: %w", lib, err)
			}
		}
		return nil
	})
}

func (p *Pipeline) restack(ctx context.Context, t *catalog.Task) error {
	if t.AssetID != "" {
		return tasks.Permanent(errors.New("a restack task is a library's, not an asset's"))
	}
	return p.Restack(ctx, t.LibraryID)
}

// Restack checks every automatic stack of the library against the burst
// rules (fromCamera, neighbours). Members whose camera evidence was never
// recorded are read again first (the metadata step). A stack whose members
// still form one burst is left as it is, cover included; any other is
// dissolved, and each part of it that is still a burst of two or more
// shots becomes an automatic stack of its own (keeping the cover when it
// is in that part). Stacks users made are never touched, nor are the
// members users took out. Each change writes its stack events and an
// asset.updated event for each member. Idempotent.
func (p *Pipeline) Restack(ctx context.Context, libraryID string) error {
	pg := query.Page{Limit: 200}
	for {
		list, more, err := p.d.Store.Read().Stacks().List(ctx, query.StackFilter{LibraryID: libraryID}, pg)
		if err != nil {
			return err
		}
		for _, st := range list {
			if st.Source != catalog.StackAuto {
				continue
			}
			if err := p.restackOne(ctx, &st); err != nil {
				return fmt.Errorf("restack %s: %w", st.ID, err)
			}
		}
		// Stacks made meanwhile are newer than the cursor: never revisited.
		if !more || len(list) == 0 {
			return nil
		}
		pg.AfterID = list[len(list)-1].ID
	}
}

// restackOne holds one automatic stack to the rules.
func (p *Pipeline) restackOne(ctx context.Context, st *catalog.Stack) error {
	shots, err := p.d.Store.Read().Bursts().Shots(ctx, st.AssetIDs)
	if err != nil {
		return err
	}
	for _, s := range shots {
		if s.CaptureSource == "" {
			if err := p.metadata(ctx, s.ID); err != nil && !errors.Is(err, errVanished) {
				return fmt.Errorf("read %s again: %w", s.ID, err)
			}
		}
	}
	cfg := p.d.Burst.withDefaults()
	return p.d.Store.InLibraryTx(ctx, st.LibraryID, func(r store.Repos) error {
		st, err := r.Stacks().Get(ctx, st.ID)
		if errors.Is(err, catalog.ErrNotFound) {
			return nil
		}
		if err != nil || st.Source != catalog.StackAuto {
			return err
		}
		shots, err := r.Bursts().Shots(ctx, st.AssetIDs)
		if err != nil {
			return err
		}
		parts := burstParts(shots, cfg)
		if len(parts) == 1 && len(parts[0]) == len(st.AssetIDs) {
			return nil
		}
		if err := p.d.Stacks.DissolveAuto(ctx, r, st.ID); err != nil {
			return err
		}
		for _, part := range parts {
			ids := make([]string, 0, len(part))
			group := map[string]store.BurstShot{}
			for _, s := range part {
				ids, group[s.ID] = append(ids, s.ID), s
			}
			slices.Sort(ids)
			cover := st.CoverAssetID
			if _, in := group[cover]; !in {
				cover = bestShot(group)
			}
			if _, err := p.d.Stacks.CreateAuto(ctx, r, st.LibraryID, ids, cover); err != nil {
				return err
			}
		}
		return restackEvents(ctx, r, st.LibraryID, st.AssetIDs, p.d.Now().UTC())
	})
}

// burstParts splits shots (a stack's members) into the bursts they form
// under today's rules: groups of two or more shots from the camera, each
// linked to another by neighbours. Shots without the camera's evidence or
// taken out by a user belong to none.
func burstParts(shots []store.BurstShot, cfg BurstConfig) [][]store.BurstShot {
	var eligible []store.BurstShot
	for _, s := range shots {
		if fromCamera(s) && !s.Excluded && s.PHash != "" {
			eligible = append(eligible, s)
		}
	}
	seen := make([]bool, len(eligible))
	var parts [][]store.BurstShot
	for i := range eligible {
		if seen[i] {
			continue
		}
		seen[i] = true
		part := []store.BurstShot{eligible[i]}
		for k := 0; k < len(part); k++ {
			for j := range eligible {
				if !seen[j] && neighbours(part[k], eligible[j], cfg) {
					seen[j] = true
					part = append(part, eligible[j])
				}
			}
		}
		if len(part) >= catalog.MinStackAssets {
			parts = append(parts, part)
		}
	}
	return parts
}
