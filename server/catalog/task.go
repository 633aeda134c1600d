package catalog

import "time"

// TaskState is where a background task is in its life: queued (waiting,
// also between retries), running (claimed by a worker), then succeeded or
// failed for good.
type TaskState string

// Task states.
const (
	TaskQueued    TaskState = "queued"
	TaskRunning   TaskState = "running"
	TaskSucceeded TaskState = "succeeded"
	TaskFailed    TaskState = "failed"
)

// Valid reports whether s is one of the four task states.
func (s TaskState) Valid() bool {
	return s == TaskQueued || s == TaskRunning || s == TaskSucceeded || s == TaskFailed
}

// Task is one step of background work (metadata, variants, geocode, ...)
// on an asset, or on a whole library when AssetID is empty.
type Task struct {
	ID        string
	Kind      string
	State     TaskState
	AssetID   string // "" for a library-wide task
	LibraryID string
	// Attempts counts the times a worker claimed the task; MaxAttempts is
	// the limit the claiming worker applied (0 until first claimed).
	Attempts    int
	MaxAttempts int
	// Error is the last failure: kept while a retry waits and once the
	// task failed; nil after a success.
	Error *string
	// Progress is a fraction from 0 to 1, nil when unknown.
	Progress *float64
	// RunAfter is when a queued task becomes due (later than CreatedAt
	// while a retry backs off).
	RunAfter time.Time
	// LeaseOwner and LeaseUntil are set while running: which claim holds
	// the task, and until when it counts as alive without a heartbeat.
	LeaseOwner string
	LeaseUntil *time.Time
	CreatedAt  time.Time
	StartedAt  *time.Time // the latest claim
	FinishedAt *time.Time // set once succeeded or failed
}

// Subject is what at most one queued task of a kind may be about: the
// asset, or the library for a library-wide task.
func (t *Task) Subject() string {
	if t.AssetID != "" {
		return t.AssetID
	}
	return t.LibraryID
}
