package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/photoctl/photoctl/ingest/metrics"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// DefaultBurstGap is the longest time between two shots of one burst.
const DefaultBurstGap = time.Second

// DefaultBurstMaxDistance is the most pHash bits (of 64) in which two
// neighbouring shots of one burst may differ.
//
// Measured (TestBurstSimilarityThresholdSeparatesRealPhotos, the hash made
// as the pipeline makes it) on seven real photos from the build list's
// test data: on the six full-size ones, frames shifted by 1-2% of the
// frame, 10% brighter or darker, or blurred by a shake differ from the
// steady frame by 0-12 bits, a 3%+2% diagonal shift by up to 16 (the
// 500 px photo's shifted frames by up to 22); different photos by 24 bits
// and more. 10, a usual near-duplicate bound, would drop 6 of those 54
// frames; 16 keeps them all and leaves 8 bits to the closest different
// photos. Two unrelated hashes (32 bits set each) come within 16 bits with
// probability 7·10⁻⁵, and a candidate must already be from the same camera
// within the gap.
const DefaultBurstMaxDistance = 16

// maxBurstShots bounds an automatic stack (a stack call takes at most
// catalog.MaxIDs assets): the walk stops growing a burst there, so an
// interval timer's hours of similar shots cannot chain into one stack.
const maxBurstShots = catalog.MaxIDs

// maxNear bounds the shots one range query reads around a shot.
const maxNear = 4 * maxBurstShots

// BurstConfig tunes burst detection. Zero fields take the defaults.
type BurstConfig struct {
	// Gap is the longest time between two shots of one burst
	// (DefaultBurstGap).
	Gap time.Duration
	// MaxDistance is the most pHash bits in which neighbouring shots may
	// differ (DefaultBurstMaxDistance); 0..64.
	MaxDistance int
}

func (c BurstConfig) withDefaults() BurstConfig {
	if c.Gap == 0 {
		c.Gap = DefaultBurstGap
	}
	if c.MaxDistance == 0 {
		c.MaxDistance = DefaultBurstMaxDistance
	}
	return c
}

// Validate reports a negative gap or a distance outside 0..64.
func (c BurstConfig) Validate() error {
	if c.Gap < 0 || c.MaxDistance < 0 || c.MaxDistance > 64 {
		return fmt.Errorf("burst: the gap must not be negative and the distance must lie in 0..64 (got %s, %d)",
			c.Gap, c.MaxDistance)
	}
	return nil
}

// Burst stacks the asset with the shots around it when they are a burst:
// live assets of its library whose capture time the camera recorded, from
// the same camera (fromCamera, sameCamera: make and model, serial number
// and burst id where the files have them), captured within the gap of one
// another (to the sub-second where the camera recorded it), a chain of such shots walked
// outward from the asset, each similar to its neighbour (pHash distance at
// most MaxDistance). The burst becomes an automatic stack — or joins the
// automatic stacks its shots are in, merging them — whose cover is its best
// shot by quality (earliest on a tie); members read it as
// metadata.auto_stack_id. Shots without metrics yet are left for their own
// burst task, which runs after their metrics step and looks again: so
// shots that arrive out of order or in separate uploads end in one stack.
// Shots in a user's stack, or that a user took out of an automatic one,
// are never stacked; the detector never changes a user's stack.
//
// Everything is written in one transaction with its events (stack.*, and
// asset.updated for each asset whose auto_stack_id changed), and only when
// something changes: a re-run is silent, and a cover the user picked for
// an automatic stack stays until new shots join. Idempotent.
func (p *Pipeline) Burst(ctx context.Context, assetID string) error {
	return p.settle(ctx, assetID, p.burst(ctx, assetID))
}

func (p *Pipeline) burst(ctx context.Context, id string) error {
	// Most photos are no burst: look on a reader first, and take the
	// library's write lock only when there is something to write. The reader sees every
	// shot whose metrics committed before this task started; a shot that
	// commits later runs its own burst task after that and sees this one.
	todo, err := p.burstPlan(ctx, p.d.Store.Read(), id)
	if err != nil || todo == nil {
		return err
	}
	return p.d.Store.InLibraryTx(ctx, todo.libraryID, func(r store.Repos) error {
		todo, err := p.burstPlan(ctx, r, id)
		if err != nil || todo == nil {
			return err
		}
		return p.stackBurst(ctx, r, todo)
	})
}

// burstTodo is what a burst task writes: a stack to create (keep "") or
// to keep, stacks to fold into it, its members to add and its cover ("" to
// leave it).
type burstTodo struct {
	libraryID string
	keep      string
	fold      []string
	add       []string
	cover     string
}

// burstPlan reads the burst around asset id through r and returns what to
// write, nil when nothing changes.
func (p *Pipeline) burstPlan(ctx context.Context, r store.Repos, id string) (*burstTodo, error) {
	cfg := p.d.Burst.withDefaults()
	found, err := r.Bursts().Shots(ctx, []string{id})
	if err != nil {
		return nil, err
	}
	if len(found) == 0 {
		return nil, errVanished
	}
	me := found[0]
	if !stackable(me) {
		return nil, nil
	}
	group, err := walkBurst(ctx, r, me, cfg)
	if err != nil || len(group) < catalog.MinStackAssets {
		return nil, err
	}
	// The automatic stacks the burst touches: the oldest stays, the others
	// fold into it; all their members are the burst's too.
	var touched []string
	for _, s := range group {
		if s.StackID != "" && !slices.Contains(touched, s.StackID) {
			touched = append(touched, s.StackID)
		}
	}
	slices.Sort(touched) // ids grow with time: the first is the oldest
	var had []string     // members of the kept stack before
	if len(touched) > 0 {
		stacks, err := r.Stacks().GetMany(ctx, touched)
		if err != nil {
			return nil, err
		}
		var more []string
		for _, st := range stacks {
			if st.ID == touched[0] {
				had = st.AssetIDs
			}
			for _, m := range st.AssetIDs {
				if _, ok := group[m]; !ok {
					more = append(more, m)
				}
			}
		}
		shots, err := r.Bursts().Shots(ctx, more)
		if err != nil {
			return nil, err
		}
		for _, s := range shots {
			group[s.ID] = s
		}
	}
	var add []string
	for mid := range group {
		if !slices.Contains(had, mid) {
			add = append(add, mid)
		}
	}
	if len(add) == 0 && len(touched) <= 1 {
		return nil, nil // the burst is stacked already
	}
	if len(group) > maxBurstShots {
		p.log.Warn("burst too large to stack", "asset_id", id, "shots", len(group))
		return nil, nil
	}
	slices.Sort(add)
	todo := &burstTodo{libraryID: me.LibraryID, add: add, cover: bestShot(group)}
	if len(touched) > 0 {
		todo.keep, todo.fold = touched[0], touched[1:]
	}
	return todo, nil
}

// stackable says whether burst detection may stack the shot: live, with a
// hash and the camera's evidence, in no user's stack, never taken out of
// an automatic stack by a user.
func stackable(s store.BurstShot) bool {
	return s.Live && !s.Excluded && s.PHash != "" && fromCamera(s) &&
		(s.StackID == "" || s.StackSource == catalog.StackAuto)
}

// fromCamera says whether the shot carries the evidence a burst needs: a
// capture time the camera recorded (an EXIF or QuickTime capture tag; not
// a file time, which is when a file was copied, nor a user's edit) and the
// camera's make or model. A device id names the uploading client, not a
// camera, and is no such evidence.
func fromCamera(s store.BurstShot) bool {
	return s.CaptureSource != "" && s.CaptureSource != catalog.CaptureFromFile && !s.UserTime &&
		(s.Make != "" || s.Model != "")
}

// sameCamera says whether two shots may come from one camera: the same
// make and model; the same serial number when both record one; the same
// burst id when either has one (cameras that write one write it on every
// frame of a burst and on no single shot); and not uploaded from two
// different devices.
func sameCamera(a, b store.BurstShot) bool {
	if a.Make != b.Make || a.Model != b.Model {
		return false
	}
	if a.SerialNumber != "" && b.SerialNumber != "" && a.SerialNumber != b.SerialNumber {
		return false
	}
	if (a.BurstID != "" || b.BurstID != "") && a.BurstID != b.BurstID {
		return false
	}
	return a.DeviceID == "" || b.DeviceID == "" || a.DeviceID == b.DeviceID
}

// neighbours says whether two shots are consecutive frames of one burst:
// from one camera, captured within the gap of each other, and similar.
func neighbours(a, b store.BurstShot, cfg BurstConfig) bool {
	d := a.Instant.Sub(b.Instant)
	return sameCamera(a, b) && d <= cfg.Gap && -d <= cfg.Gap &&
		a.PHash != "" && b.PHash != "" && metrics.HammingDistance(a.PHash, b.PHash) <= cfg.MaxDistance
}

// walkBurst collects the burst around me: breadth first, each shot's
// neighbours within the gap (one indexed range each) that are stackable,
// from its device and similar to it, up to maxBurstShots.
func walkBurst(ctx context.Context, r store.Repos, me store.BurstShot, cfg BurstConfig) (map[string]store.BurstShot, error) {
	group := map[string]store.BurstShot{me.ID: me}
	queue := []store.BurstShot{me}
	for len(queue) > 0 && len(group) < maxBurstShots {
		x := queue[0]
		queue = queue[1:]
		near, err := r.Bursts().Near(ctx, me.LibraryID, x.Instant.Add(-cfg.Gap), x.Instant.Add(cfg.Gap), maxNear)
		if err != nil {
			return nil, err
		}
		for _, c := range near {
			if _, in := group[c.ID]; in || !stackable(c) || !neighbours(x, c, cfg) {
				continue
			}
			group[c.ID] = c
			queue = append(queue, c)
			if len(group) == maxBurstShots {
				break
			}
		}
	}
	return group, nil
}

// bestShot returns the cover: the live shot of the highest quality, the
// earliest (then lowest id) on a tie; among all shots when none is live.
func bestShot(group map[string]store.BurstShot) string {
	anyLive := false
	for _, s := range group {
		anyLive = anyLive || s.Live
	}
	var best *store.BurstShot
	for _, s := range group {
		if anyLive && !s.Live {
			continue
		}
		if best == nil || better(s, *best) {
			best = &s
		}
	}
	return best.ID
}

func better(a, b store.BurstShot) bool {
	qa, qb := -1.0, -1.0
	if a.Quality != nil {
		qa = *a.Quality
	}
	if b.Quality != nil {
		qb = *b.Quality
	}
	if qa != qb {
		return qa > qb
	}
	if !a.Instant.Equal(b.Instant) {
		return a.Instant.Before(b.Instant)
	}
	return a.ID < b.ID
}

// stackBurst writes todo: the stack calls write the stack events, and each
// asset whose auto_stack_id changed gets an asset.updated event.
func (p *Pipeline) stackBurst(ctx context.Context, r store.Repos, todo *burstTodo) error {
	var err error
	switch {
	case todo.keep == "":
		_, err = p.d.Stacks.CreateAuto(ctx, r, todo.libraryID, todo.add, todo.cover)
	case len(todo.fold) > 0:
		_, err = p.d.Stacks.MergeAuto(ctx, r, todo.keep, todo.fold, todo.add, todo.cover)
	default:
		_, err = p.d.Stacks.UpdateAuto(ctx, r, todo.keep, todo.add, todo.cover)
	}
	if err != nil {
		return fmt.Errorf("stack burst: %w", err)
	}
	return restackEvents(ctx, r, todo.libraryID, todo.add, p.d.Now().UTC())
}

// restackEvents writes an asset.updated event (metadata, from the burst
// step) for each asset whose auto_stack_id changed.
func restackEvents(ctx context.Context, r store.Repos, libraryID string, ids []string, now time.Time) error {
	data, err := json.Marshal(map[string]any{"fields": []string{"metadata"}, "step": KindBurst})
	if err != nil {
		return err
	}
	for _, id := range ids {
		if err := r.Events().Append(ctx, &catalog.Event{ID: catalog.NewID(catalog.PrefixEvent, now),
			Type: "asset.updated", LibraryID: libraryID, ResourceID: id, Data: data, CreatedAt: now}); err != nil {
			return err
		}
	}
	return nil
}
