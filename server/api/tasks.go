package api

import "time"

// Task is the status of one background task (decisions.md "Search, events,
// tasks, health"). AssetID is null for a library-wide task; Error is the
// last failure (kept while a retry waits); Progress is a fraction from 0
// to 1, null while unknown. LibraryID is additive. RunAfter is when the
// task is (or was) due: its creation for most, later for a retry waiting
// out its backoff or a task scheduled ahead (a library's re-cluster).
type Task struct {
	ID         string     `json:"id"`
	Kind       string     `json:"kind"`
	State      string     `json:"state"`
	AssetID    *string    `json:"asset_id"`
	LibraryID  string     `json:"library_id"`
	Attempts   int        `json:"attempts"`
	Error      *string    `json:"error"`
	Progress   *float64   `json:"progress"`
	CreatedAt  time.Time  `json:"created_at"`
	RunAfter   time.Time  `json:"run_after"`
	StartedAt  *time.Time `json:"started_at"`
	FinishedAt *time.Time `json:"finished_at"`
}
