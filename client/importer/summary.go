package importer

import (
	"cmp"
	"slices"
	"sync/atomic"
	"time"
)

// Status is the outcome of one file.
type Status string

// The outcomes of a file. In a dry run, StatusNew means "would be uploaded".
const (
	StatusNew       Status = "new"       // uploaded; the server made a new asset
	StatusDuplicate Status = "duplicate" // the library already holds the same bytes; nothing sent
	StatusSkipped   Status = "skipped"   // not a candidate (excluded, not media, ...)
	StatusFailed    Status = "failed"    // could not be read or was refused
)

// Result is what happened to one file.
type Result struct {
	Path   string `json:"path"`
	Status Status `json:"status"`
	// AssetID is the new asset, or for a duplicate the asset holding the
	// same bytes ("" when the duplicate is another file of this run that
	// was not uploaded yet, or in a dry run).
	AssetID string `json:"asset_id,omitempty"`
	// Reason says why a file was skipped, failed or is a duplicate.
	Reason string `json:"reason,omitempty"`
	Size   int64  `json:"size"`
	// Checksum is the base64 SHA-256, when it was computed or known.
	Checksum string `json:"checksum,omitempty"`
	// Sidecar is the XMP sidecar sent with the file, if any.
	Sidecar string `json:"sidecar,omitempty"`
}

// outcome is a Result on its way to the summary, with the bytes of it
// already counted as done (sent while uploading).
type outcome struct {
	Result
	file    file  // the file, for its album; zero for skipped entries
	found   bool  // a photo or video the walk counted in Progress.Found
	counted int64 // bytes of it already added to Progress.DoneBytes
}

// Summary is the outcome of a run.
type Summary struct {
	DryRun      bool
	Interrupted bool
	New         int
	Duplicate   int
	Skipped     int
	Failed      int
	// SentBytes is what was uploaded (files of new assets).
	SentBytes int64
	// Hashed counts the files read to compute their checksum.
	Hashed   int64
	Duration time.Duration
	// Results has one item per file, sorted by path.
	Results []Result
	// Albums lists the albums assets were added to, in order of first use.
	Albums []AlbumResult
}

func (s *Summary) add(r Result) {
	switch r.Status {
	case StatusNew:
		s.New++
	case StatusDuplicate:
		s.Duplicate++
	case StatusSkipped:
		s.Skipped++
	case StatusFailed:
		s.Failed++
	}
	s.Results = append(s.Results, r)
}

func (s *Summary) sort() {
	slices.SortStableFunc(s.Results, func(a, b Result) int { return cmp.Compare(a.Path, b.Path) })
}

// Progress is a snapshot of a running import, for a progress bar.
type Progress struct {
	// Found and FoundBytes count the photos and videos found so far;
	// WalkDone says whether the walk has finished (so they are final).
	Found, FoundBytes int64
	WalkDone          bool
	// Done counts files with an outcome; DoneBytes their bytes plus the
	// bytes sent so far of files still uploading.
	Done, DoneBytes int64
	// SentBytes is what went over the wire (file bytes of uploads).
	SentBytes int64
	// Hashed counts the files read to compute their checksum (the others
	// were found unchanged in the index).
	Hashed                          int64
	New, Duplicate, Skipped, Failed int64
}

// counters is the live state behind Progress.
type counters struct {
	found, foundBytes, done, doneBytes, sent, hashed atomic.Int64
	walkDone                                         atomic.Bool
	statuses                                         [4]atomic.Int64
}

func (c *counters) snapshot() Progress {
	return Progress{
		Found: c.found.Load(), FoundBytes: c.foundBytes.Load(), WalkDone: c.walkDone.Load(),
		Done: c.done.Load(), DoneBytes: c.doneBytes.Load(), SentBytes: c.sent.Load(), Hashed: c.hashed.Load(),
		New: c.statuses[0].Load(), Duplicate: c.statuses[1].Load(), Skipped: c.statuses[2].Load(), Failed: c.statuses[3].Load(),
	}
}

func (c *counters) count(s Status) {
	i := slices.Index([]Status{StatusNew, StatusDuplicate, StatusSkipped, StatusFailed}, s)
	c.statuses[i].Add(1)
}
