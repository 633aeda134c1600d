package importer

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/photoctl/photoctl/client"
)

// checkDelay is how long the checker waits to fill a batch before it asks
// the server anyway, so that the first uploads start at once.
const checkDelay = 50 * time.Millisecond

// hashFiles computes the checksum of each file, from the index when the
// file is unchanged since it was last hashed.
func (im *Importer) hashFiles(ctx context.Context, indexes map[string]*Index, files <-chan file,
	out chan<- hashed, results chan<- outcome) {
	buf := make([]byte, 1<<20)
	for f := range files {
		if ctx.Err() != nil {
			continue // drain: the walker stops on its own
		}
		x := indexes[f.root.dir]
		var sum [sha256.Size]byte
		ok := false
		if x != nil {
			sum, ok = x.Lookup(f.rel, f.size, f.modTime)
		}
		if !ok {
			im.counters.hashed.Add(1)
			var err error
			if sum, err = hashFile(filepath.Join(f.root.dir, filepath.FromSlash(f.rel)), buf); err != nil {
				send(ctx, results, fileOutcome(f, StatusFailed, "", "read: "+err.Error(), ""))
				continue
			}
			if x != nil {
				// A full disk or read-only cache only costs speed next time.
				_ = x.Add(f.rel, f.size, f.modTime, sum)
			}
		}
		send(ctx, out, hashed{file: f, checksum: base64.StdEncoding.EncodeToString(sum[:])})
	}
}

func hashFile(path string, buf []byte) ([sha256.Size]byte, error) {
	var sum [sha256.Size]byte
	f, err := os.Open(path)
	if err != nil {
		return sum, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.CopyBuffer(h, f, buf); err != nil {
		return sum, err
	}
	copy(sum[:], h.Sum(nil))
	return sum, nil
}

// batch groups hashed files into batches of up to client.MaxCheck for the
// duplicate check. A batch is also sent checkDelay after its first file,
// so that the first uploads start at once.
func batch(ctx context.Context, in <-chan hashed, out chan<- []hashed) {
	var b []hashed
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	flush := func() bool {
		if len(b) == 0 {
			return true
		}
		ok := send(ctx, out, b)
		b = nil
		return ok
	}
	for {
		select {
		case h, ok := <-in:
			if !ok {
				flush()
				return
			}
			b = append(b, h)
			if len(b) == 1 {
				timer.Reset(checkDelay)
			}
			if len(b) >= client.MaxCheck {
				timer.Stop()
				if !flush() {
					return
				}
			}
		case <-timer.C:
			if !flush() {
				return
			}
		case <-ctx.Done():
			return
		}
	}
}

// firstSeen remembers the first file of this run with each checksum, so
// that a second copy is never sent.
type firstSeen struct {
	mu sync.Mutex
	m  map[string]string // checksum -> path
}

// claim records path for checksum unless another file has it, whose path
// it then returns.
func (f *firstSeen) claim(checksum, path string) (first string, ok bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if first, taken := f.m[checksum]; taken {
		return first, false
	}
	f.m[checksum] = path
	return path, true
}

// check asks the server which checksums of each batch the library holds
// (several checkers run at once: on a re-run over an unchanged folder the
// checks are all the work left). Those files are duplicates and are never
// sent; so is a second file of this run with the bytes of an earlier one.
// The rest go to uploads (in a dry run, straight to the results).
func (im *Importer) check(ctx context.Context, batches <-chan []hashed, seen *firstSeen, uploads chan<- hashed,
	results chan<- outcome) error {
	for b := range batches {
		if ctx.Err() != nil {
			continue
		}
		sums := make([]string, 0, len(b))
		for _, h := range b {
			sums = append(sums, h.checksum)
		}
		held, err := im.c.CheckChecksums(ctx, im.opts.LibraryID, sums)
		if err != nil {
			if ctx.Err() != nil {
				continue
			}
			return &fatalError{fmt.Errorf("check for duplicates: %w", err)}
		}
		for _, h := range b {
			if id, ok := held[h.checksum]; ok {
				send(ctx, results, fileOutcome(h.file, StatusDuplicate, id, "already in the library", h.checksum))
				continue
			}
			first, ok := seen.claim(h.checksum, h.path)
			switch {
			case !ok:
				send(ctx, results, fileOutcome(h.file, StatusDuplicate, "", "same content as "+first, h.checksum))
			case im.opts.DryRun:
				send(ctx, results, fileOutcome(h.file, StatusNew, "", "would be uploaded", h.checksum))
			default:
				send(ctx, uploads, h)
			}
		}
	}
	return nil
}

// upload sends files until uploads closes. A failure that would repeat for
// every file (credential, library, quota) is returned and stops the run;
// others are the file's result.
func (im *Importer) upload(ctx context.Context, uploads <-chan hashed, results chan<- outcome) error {
	for h := range uploads {
		if ctx.Err() != nil {
			continue
		}
		o, err := im.uploadOne(ctx, h)
		if err != nil {
			return err
		}
		if o != nil {
			send(ctx, results, *o)
		}
	}
	return nil
}

func (im *Importer) uploadOne(ctx context.Context, h hashed) (*outcome, error) {
	path := filepath.Join(h.root.dir, filepath.FromSlash(h.rel))
	part, err := client.PathPart(path, filepath.Base(path))
	if err != nil {
		o := fileOutcome(h.file, StatusFailed, "", "read: "+err.Error(), h.checksum)
		return &o, nil
	}
	part.Size = h.size // as hashed: a file changed since is refused, not sent half-new
	u := client.Upload{File: part, LibraryID: im.opts.LibraryID, DeviceID: im.opts.DeviceID,
		DeviceAssetID: fmt.Sprintf("%s-%d", filepath.Base(path), h.size),
		FileCreatedAt: h.modTime, FileModifiedAt: h.modTime}
	if h.sidecar != "" {
		sc, err := client.PathPart(h.sidecar, filepath.Base(h.sidecar))
		if err == nil {
			u.Sidecar = &sc
		}
	}
	var sent int64
	u.Progress = func(n int64) {
		sent += n
		im.counters.sent.Add(n)
		im.counters.doneBytes.Add(n)
	}
	res, err := im.c.UploadAsset(ctx, u)
	var o outcome
	switch {
	case err == nil && res.Duplicate:
		o = fileOutcome(h.file, StatusDuplicate, res.ID, "already in the library", h.checksum)
	case err == nil:
		o = fileOutcome(h.file, StatusNew, res.ID, "", h.checksum)
	case ctx.Err() != nil:
		im.counters.doneBytes.Add(-sent)
		return nil, nil
	case stopsTheRun(err):
		return nil, &fatalError{fmt.Errorf("upload %s: %w", h.path, err)}
	default:
		o = fileOutcome(h.file, StatusFailed, "", failureReason(err), h.checksum)
	}
	o.counted = sent
	if h.sidecar != "" && u.Sidecar != nil {
		o.Sidecar = h.sidecar
	}
	return &o, nil
}

// stopsTheRun reports an upload failure that every other file would meet
// as well.
func stopsTheRun(err error) bool {
	var apiErr *client.APIError
	if !errors.As(err, &apiErr) {
		return false
	}
	switch apiErr.Status {
	case http.StatusUnauthorized, http.StatusForbidden, http.StatusInsufficientStorage:
		return true
	case http.StatusUnprocessableEntity:
		for _, f := range apiErr.Fields {
			if len(f.Loc) >= 2 && f.Loc[len(f.Loc)-1] == "library_id" {
				return true
			}
		}
	}
	return false
}

// failureReason is the short reason a file failed, for the summary.
func failureReason(err error) string {
	var apiErr *client.APIError
	if errors.As(err, &apiErr) {
		switch {
		case apiErr.Status == http.StatusRequestEntityTooLarge:
			return "larger than the server accepts"
		case len(apiErr.Fields) > 0:
			return apiErr.Fields[0].Msg
		case apiErr.Detail != "":
			return apiErr.Detail
		}
	}
	return err.Error()
}

func fileOutcome(f file, status Status, assetID, reason, checksum string) outcome {
	return outcome{file: f, found: true, Result: Result{Path: f.path, Status: status, AssetID: assetID, Reason: reason,
		Size: f.size, Checksum: checksum}}
}
