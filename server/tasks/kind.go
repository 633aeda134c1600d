// Package tasks is the durable background task queue: tasks are rows
// (store.Tasks) enqueued in the same transaction as the change that needs
// them, claimed by a Runner under a lease that a heartbeat extends, retried
// with exponential backoff, and requeued when the worker running them
// stopped. Runners work inside `photoctl serve` and in separate `photoctl
// worker` processes against the same database. Service reads tasks for the
// API.
//
// Delivery is at least once: a task may run again after a crash, a lost
// lease or a retry, so every Handler must be idempotent.
package tasks

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// KindMetadata is the first step of every new asset's chain: an upload
// enqueues it in the transaction that inserts the asset.
const KindMetadata = "metadata"

// KindGeocode names the place of an asset's position; an edit of the
// position enqueues it (the pipeline registers the handler).
const KindGeocode = "geocode"

// DefaultMaxAttempts is the attempts a kind gets when it names none.
const DefaultMaxAttempts = 5

// Handler runs one task. It must be idempotent: a task may run again after
// a crash. It must return soon after ctx ends (the runner is stopping or
// lost the task's lease); the attempt is then given back, not counted.
//
// A handler that finds its asset gone must return nil (nothing to do):
// deleting an asset deletes its tasks, and whatever a running handler
// records for it afterwards finds no task row and is ignored. A handler
// that writes files for an asset should check, in the transaction that
// records them, that the asset still exists, and remove the files if not.
type Handler func(ctx context.Context, t *catalog.Task) error

// Kind is a registered task kind.
type Kind struct {
	Name string // "metadata", "variants", "geocode", "metrics", "burst", ...
	Run  Handler
	// Next are kinds enqueued for the same asset, in the same transaction
	// that marks this one succeeded.
	Next        []string
	MaxAttempts int // 0 = DefaultMaxAttempts
	// Off, when set, says why this process would only skip the kind's
	// tasks (its tool or model is missing, or turned off), or "" when it
	// runs them. A kind that is off when a predecessor succeeds is not
	// queued to be claimed and skipped: it is recorded at once, in the
	// predecessor's transaction, as succeeded with "skipped: " and the
	// reason, and its own Next follow as after a run. A task of the kind
	// queued otherwise runs, and its handler skips it with Skip. The
	// process that records the predecessor decides, so every process of
	// one installation should share the setting.
	Off func() string
}

// permanentError marks an error that retrying cannot fix.
type permanentError struct{ err error }

func (e *permanentError) Error() string { return e.err.Error() }

func (e *permanentError) Unwrap() error { return e.err }

// Permanent wraps an error that retrying cannot fix (an unreadable file):
// the task fails at once instead of being retried.
func Permanent(err error) error {
	if err == nil {
		return nil
	}
	return &permanentError{err: err}
}

// skipError marks a step that had nothing it could do (its tool is not
// installed): the task succeeds with the reason as its error text, and the
// chain goes on.
type skipError struct{ reason string }

func (e *skipError) Error() string { return "skipped: " + e.reason }

// Skip returns the outcome of a handler that did nothing for a reason
// that retrying cannot change (the ML runtime or a model is missing): the
// task succeeds, `error` on /api/tasks says "skipped: " and the reason,
// and its Next kinds are enqueued as after a success.
func Skip(reason string) error { return &skipError{reason: reason} }

// skipped returns the note of an outcome from Skip, and whether it is one.
func skipped(err error) (string, bool) {
	var s *skipError
	if errors.As(err, &s) {
		return s.Error(), true
	}
	return "", false
}

// IsPermanent reports whether err, or an error it wraps, came from
// Permanent.
func IsPermanent(err error) bool {
	var p *permanentError
	return errors.As(err, &p)
}

// Enqueue queues a task of kind for an asset (or, with assetID "", for the
// library) inside the caller's transaction, so the task commits with the
// change that needs it. A task of that kind already queued for the same
// subject is not duplicated: the queued one will see the change.
func Enqueue(ctx context.Context, r store.Repos, kind, assetID, libraryID string, now time.Time) error {
	_, err := enqueue(ctx, r, kind, assetID, libraryID, now, now)
	return err
}

// enqueue queues a task due at runAfter and reports whether it was new.
func enqueue(ctx context.Context, r store.Repos, kind, assetID, libraryID string, runAfter, now time.Time) (bool, error) {
	if kind == "" || libraryID == "" {
		return false, fmt.Errorf("enqueue task %q: kind and library are required", kind)
	}
	now = now.UTC()
	return r.Tasks().Enqueue(ctx, &catalog.Task{ID: catalog.NewID(catalog.PrefixTask, now), Kind: kind,
		State: catalog.TaskQueued, AssetID: assetID, LibraryID: libraryID, RunAfter: runAfter.UTC(), CreatedAt: now})
}

// checkKinds validates a runner's kinds: named, unique, runnable, and
// chaining only to kinds in the list (a kind nobody runs would wait forever).
func checkKinds(kinds []Kind) (map[string]Kind, error) {
	out := make(map[string]Kind, len(kinds))
	for _, k := range kinds {
		switch {
		case k.Name == "":
			return nil, errors.New("task kind without a name")
		case k.Run == nil:
			return nil, fmt.Errorf("task kind %q has no handler", k.Name)
		case k.MaxAttempts < 0:
			return nil, fmt.Errorf("task kind %q: negative MaxAttempts", k.Name)
		}
		if _, dup := out[k.Name]; dup {
			return nil, fmt.Errorf("task kind %q registered twice", k.Name)
		}
		if k.MaxAttempts == 0 {
			k.MaxAttempts = DefaultMaxAttempts
		}
		out[k.Name] = k
	}
	for _, k := range kinds {
		for _, n := range k.Next {
			if _, ok := out[n]; !ok {
				return nil, fmt.Errorf("task kind %q chains to %q, which is not registered", k.Name, n)
			}
		}
	}
	if cycle := chainCycle(out); cycle != nil {
		return nil, fmt.Errorf("task kinds chain in a circle: %s", strings.Join(cycle, " → "))
	}
	return out, nil
}

// chainCycle returns a circle of kinds each naming the next in Next (the
// first repeated at the end), or nil when the chains end: a circle would
// queue its tasks forever.
func chainCycle(kinds map[string]Kind) []string {
	const (
		onPath = iota + 1 // 0: not visited yet
		done
	)
	state := make(map[string]int, len(kinds))
	var path []string
	var visit func(name string) []string
	visit = func(name string) []string {
		switch state[name] {
		case onPath:
			i := slices.Index(path, name)
			return append(slices.Clone(path[i:]), name)
		case done:
			return nil
		}
		state[name] = onPath
		path = append(path, name)
		for _, n := range kinds[name].Next {
			if c := visit(n); c != nil {
				return c
			}
		}
		path = path[:len(path)-1]
		state[name] = done
		return nil
	}
	names := slices.Sorted(maps.Keys(kinds))
	for _, name := range names {
		if c := visit(name); c != nil {
			return c
		}
	}
	return nil
}
