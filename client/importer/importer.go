// Package importer uploads folders of photos and videos: it walks them,
// hashes each file (or finds its hash in a local index), asks the server
// which checksums it already holds so that duplicates are never sent, and
// streams the rest in parallel. Interrupting a run loses nothing: the next
// run finds the files already hashed in the index and the files already
// uploaded on the server.
package importer

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/photoctl/photoctl/client"
)

// Options configure an import.
type Options struct {
	// Paths are the files and folders to upload.
	Paths []string
	// Recursive descends into subfolders.
	Recursive bool
	// Include, when set, keeps only files matching one of these globs;
	// Exclude drops files and folders matching one. A glob matches the
	// path relative to its folder argument or the bare name; * and ? stay
	// within a folder, ** crosses folders; case is ignored.
	Include, Exclude []string
	// LibraryID is the library to upload to; "" lets the server choose
	// (allowed when the caller has one library).
	LibraryID string
	// Jobs is how many files are hashed and uploaded at once (default 4).
	Jobs int
	// DryRun hashes and checks but uploads nothing.
	DryRun bool
	// DeviceID names this machine to the server (device_id).
	DeviceID string
	// CacheDir holds the hash indexes; "" disables them.
	CacheDir string
	// Album, when set, is the album (found or made by name) that every
	// uploaded file, and every file the library already held, is added to.
	Album string
	// AlbumFromFolder adds each file to an album named after its folder.
	AlbumFromFolder bool
}

// ErrInterrupted is returned (with the partial Summary) when the context
// ends before the run does.
var ErrInterrupted = errors.New("interrupted")

// Importer runs one import. Progress may be called from any goroutine
// while Run runs.
type Importer struct {
	c        *client.Client
	opts     Options
	walker   walker
	counters counters
}

// New checks opts and returns an importer; bad globs are errors.
func New(c *client.Client, opts Options) (*Importer, error) {
	if opts.Jobs <= 0 {
		opts.Jobs = 4
	}
	if len(opts.Paths) == 0 {
		return nil, errors.New("no files or folders to upload")
	}
	if opts.Album != "" && opts.AlbumFromFolder {
		return nil, errors.New("choose one album or an album per folder, not both")
	}
	im := &Importer{c: c, opts: opts}
	im.walker = walker{recursive: opts.Recursive, counters: &im.counters}
	for _, g := range opts.Include {
		re, err := compileGlob(g)
		if err != nil {
			return nil, err
		}
		im.walker.include = append(im.walker.include, re)
	}
	for _, g := range opts.Exclude {
		re, err := compileGlob(g)
		if err != nil {
			return nil, err
		}
		im.walker.exclude = append(im.walker.exclude, re)
	}
	return im, nil
}

// Progress returns a snapshot of the run so far.
func (im *Importer) Progress() Progress { return im.counters.snapshot() }

// hashed is a file whose checksum is known.
type hashed struct {
	file
	checksum string
}

// Run imports every file and returns the summary. The error is nil when the
// run went through (even if some files failed: see Summary.Failed),
// ErrInterrupted when ctx ended first, or what stopped the run for every
// file (the credential cannot upload, the library is ambiguous, the quota is
// full).
func (im *Importer) Run(ctx context.Context) (*Summary, error) {
	start := time.Now()
	roots, err := resolveRoots(im.opts.Paths)
	if err != nil {
		return nil, err
	}
	indexes, err := im.openIndexes(roots)
	if err != nil {
		return nil, err
	}

	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	files := make(chan file, 256)
	hashedFiles := make(chan hashed, 256)
	uploads := make(chan hashed, 256)
	results := make(chan outcome, 256)
	walked := make(map[*root]bool)
	var wg sync.WaitGroup

	wg.Go(func() {
		defer close(files)
		for _, r := range roots {
			err := im.walker.walk(ctx, r, files, results)
			if err != nil && ctx.Err() == nil {
				send(ctx, results, failed(r.shown, err.Error()))
			}
			walked[r] = err == nil
		}
		im.counters.walkDone.Store(true)
	})
	var hashers sync.WaitGroup
	for range im.opts.Jobs {
		hashers.Go(func() { im.hashFiles(ctx, indexes, files, hashedFiles, results) })
	}
	wg.Go(func() {
		hashers.Wait()
		close(hashedFiles)
	})
	batches := make(chan []hashed, im.opts.Jobs)
	wg.Go(func() {
		defer close(batches)
		batch(ctx, hashedFiles, batches)
	})
	var checkers sync.WaitGroup
	seen := &firstSeen{m: make(map[string]string)}
	for range im.opts.Jobs {
		checkers.Go(func() {
			if err := im.check(ctx, batches, seen, uploads, results); err != nil {
				cancel(err)
			}
		})
	}
	wg.Go(func() {
		checkers.Wait()
		close(uploads)
	})
	for range im.opts.Jobs {
		wg.Go(func() {
			if err := im.upload(ctx, uploads, results); err != nil {
				cancel(err)
			}
		})
	}
	go func() {
		wg.Wait()
		close(results)
	}()

	sum := &Summary{DryRun: im.opts.DryRun}
	albums := newAlbumer(im.c, im.opts)
	for o := range results {
		sum.add(o.Result)
		if albums != nil && o.AssetID != "" && context.Cause(ctx) == nil {
			if err := albums.add(ctx, o.file, o.AssetID); err != nil {
				cancel(err)
			}
		}
		im.counters.count(o.Status)
		if o.found {
			im.counters.done.Add(1)
			im.counters.doneBytes.Add(o.Size - o.counted)
		}
	}
	if albums != nil {
		if context.Cause(ctx) == nil {
			if err := albums.flush(ctx); err != nil {
				cancel(err)
			}
		}
		sum.Albums = albums.results()
	}
	sum.SentBytes = im.counters.sent.Load()
	sum.Hashed = im.counters.hashed.Load()
	sum.Duration = time.Since(start)
	sum.sort()

	cause := context.Cause(ctx)
	interrupted := cause != nil
	var closeErr error
	for dir, x := range indexes {
		complete := !interrupted && im.opts.Recursive && len(im.opts.Include) == 0 && len(im.opts.Exclude) == 0
		for _, r := range roots {
			if r.dir == dir {
				complete = complete && r.only == "" && walked[r]
			}
		}
		closeErr = errors.Join(closeErr, x.Close(complete))
	}
	switch {
	case cause == nil:
		return sum, closeErr
	case errors.Is(cause, context.Canceled) && !isFatal(cause):
		sum.Interrupted = true
		return sum, ErrInterrupted
	default:
		sum.Interrupted = true
		return sum, cause
	}
}

// fatalError stops the whole run: every other file would fail the same way.
type fatalError struct{ err error }

func (e *fatalError) Error() string { return e.err.Error() }
func (e *fatalError) Unwrap() error { return e.err }

func isFatal(err error) bool {
	var f *fatalError
	return errors.As(err, &f)
}

// resolveRoots turns the path arguments into roots; a path that does not
// exist stops the run before anything is sent.
func resolveRoots(paths []string) ([]*root, error) {
	var roots []*root
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, err
		}
		fi, err := os.Stat(abs)
		if err != nil {
			return nil, fmt.Errorf("upload %s: %w", p, err)
		}
		if fi.IsDir() {
			roots = append(roots, &root{dir: abs, shown: p})
		} else {
			roots = append(roots, &root{dir: filepath.Dir(abs), shown: p, only: filepath.Base(abs)})
		}
	}
	return roots, nil
}

func (im *Importer) openIndexes(roots []*root) (map[string]*Index, error) {
	indexes := make(map[string]*Index)
	if im.opts.CacheDir == "" {
		return indexes, nil
	}
	for _, r := range roots {
		if indexes[r.dir] != nil {
			continue
		}
		x, err := OpenIndex(IndexPath(im.opts.CacheDir, r.dir))
		if err != nil {
			for _, open := range indexes {
				open.Close(false)
			}
			return nil, err
		}
		indexes[r.dir] = x
	}
	return indexes, nil
}
