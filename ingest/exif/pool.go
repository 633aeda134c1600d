// Package exif reads photo and video metadata with exiftool: a small pool
// of long-lived `exiftool -stay_open` processes (github.com/barasher/go-exiftool),
// never one process per file. Read returns plain Metadata: camera, exposure,
// GPS, the datetimes with their offsets, the capture time chosen by the
// ingest rule and the GPS time zone (github.com/ringsaturn/tzf, data
// embedded, no network).
package exif

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/barasher/go-exiftool"
)

// Config bounds the pool.
type Config struct {
	// Processes is the number of exiftool processes, and so of files read
	// at once. Default 2.
	Processes int
	// Timeout bounds reading one file with its sidecar, counted from the
	// moment a process is handed out (waiting for one is bounded by the
	// caller's context). A process that exceeds it is killed and replaced.
	// Default 30s.
	Timeout time.Duration
	// Binary is the exiftool executable: a name looked up in PATH or a
	// path. Default "exiftool".
	Binary string
}

// Validate rejects negative bounds; zero values take the defaults.
func (c Config) Validate() error {
	if c.Processes < 0 {
		return fmt.Errorf("exif: processes must not be negative, got %d", c.Processes)
	}
	if c.Timeout < 0 {
		return fmt.Errorf("exif: timeout must not be negative, got %s", c.Timeout)
	}
	return nil
}

func (c Config) withDefaults() Config {
	if c.Processes == 0 {
		c.Processes = 2
	}
	if c.Timeout == 0 {
		c.Timeout = 30 * time.Second
	}
	if c.Binary == "" {
		c.Binary = "exiftool"
	}
	return c
}

var (
	// ErrClosed is returned by Read after Close.
	ErrClosed = errors.New("exif: pool closed")
	// ErrTimeout is returned by Read when exiftool took longer than
	// Config.Timeout; it wraps context.DeadlineExceeded.
	ErrTimeout = fmt.Errorf("exif: exiftool exceeded the per-file timeout: %w", context.DeadlineExceeded)
	// ErrUnreadable is returned by Read when exiftool reports an error for
	// the file or sidecar ("File is empty", "Unknown file type"). Warnings,
	// such as a truncated JPEG's, are not errors.
	ErrUnreadable = errors.New("exif: exiftool cannot read the file")
)

// Pool is a small set of long-lived `exiftool -stay_open` processes. It is
// safe for concurrent use; Close stops the processes.
type Pool struct {
	cfg       Config
	binary    string                           // absolute path of exiftool
	extra     []func(*exiftool.Exiftool) error // options of this pool's processes beyond the common ones
	slots     chan *instance                   // Processes entries; nil is a slot whose process is not running
	done      chan struct{}                    // closed by Close
	closing   sync.Once
	replacing sync.WaitGroup
	// embedded is one more process, started on first use, that prints
	// binary tags (EmbeddedImage). It shares done; Close stops it.
	embedded *Pool
	unguard  func() // removes what guard made, once every process has stopped
}

// NewPool starts cfg.Processes exiftool processes.
func NewPool(cfg Config) (*Pool, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	bin, err := exec.LookPath(cfg.Binary)
	if err == nil {
		bin, err = filepath.Abs(bin)
	}
	if err != nil {
		return nil, fmt.Errorf("find exiftool: %w", err)
	}
	bin, unguard, err := guard(bin)
	if err != nil {
		return nil, err
	}
	p := &Pool{cfg: cfg, binary: bin, slots: make(chan *instance, cfg.Processes), done: make(chan struct{}), unguard: unguard}
	for range cfg.Processes {
		in, err := start(bin)
		if err != nil {
			close(p.done)
			for range len(p.slots) {
				(<-p.slots).stop()
			}
			unguard()
			return nil, err
		}
		p.slots <- in
	}
	p.embedded = &Pool{cfg: Config{Processes: 1, Timeout: cfg.Timeout, Binary: cfg.Binary}, binary: bin,
		extra: []func(*exiftool.Exiftool) error{exiftool.ExtractAllBinaryMetadata()},
		slots: make(chan *instance, 1), done: p.done}
	p.embedded.slots <- nil
	return p, nil
}

// Close stops the processes and makes later Reads fail with ErrClosed. It
// waits for Reads in progress, each bounded by Config.Timeout. It always
// returns nil.
func (p *Pool) Close() error {
	p.closing.Do(func() {
		close(p.done)
		for _, pool := range []*Pool{p, p.embedded} {
			for range pool.cfg.Processes {
				if in := <-pool.slots; in != nil {
					in.stop()
				}
			}
		}
		p.replacing.Wait()
		p.embedded.replacing.Wait()
		p.unguard()
	})
	return nil
}

// Read extracts metadata from a file and, when sidecar != "", from an XMP
// sidecar whose values override the file's (except the file's own facts:
// type, dimensions, duration, frame rate, colour profile). It fails with
// an fs error for a missing file, ErrUnreadable when exiftool cannot read
// it, ErrTimeout (a context.DeadlineExceeded) when exiftool hangs, and the
// context's error when ctx ends first; in the last two cases the process is
// killed and replaced.
func (p *Pool) Read(ctx context.Context, path, sidecar string) (*Metadata, error) {
	files, err := arguments(path, sidecar)
	if err != nil {
		return nil, fmt.Errorf("read metadata: %w", err)
	}
	fms, err := p.extract(ctx, files)
	if err != nil {
		return nil, fmt.Errorf("read metadata of %s: %w", path, err)
	}
	return decode(fms)
}

// extract runs one exiftool command over files on a process of the pool,
// within Config.Timeout.
func (p *Pool) extract(ctx context.Context, files []string) ([]exiftool.FileMetadata, error) {
	in, err := p.acquire(ctx)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeoutCause(ctx, p.cfg.Timeout, ErrTimeout)
	defer cancel()
	result := make(chan []exiftool.FileMetadata, 1)
	go func() { result <- in.et.ExtractMetadata(files...) }()
	select {
	case fms := <-result:
		if inStep(fms) {
			p.slots <- in
		} else {
			p.replace(in)
		}
		return fms, nil
	case <-ctx.Done():
		p.replace(in)
		return nil, context.Cause(ctx)
	}
}

// acquire hands out a process, starting one for an empty slot.
func (p *Pool) acquire(ctx context.Context) (*instance, error) {
	if ctx.Err() != nil { // select picks at random among ready cases
		return nil, context.Cause(ctx)
	}
	select {
	case <-p.done:
		return nil, ErrClosed
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	case in := <-p.slots:
		select {
		case <-p.done:
			p.slots <- in
			return nil, ErrClosed
		default:
		}
		if in == nil {
			var err error
			if in, err = start(p.binary, p.extra...); err != nil {
				p.slots <- nil
				return nil, err
			}
		}
		return in, nil
	}
}

// replace stops a process that hung or fell out of step and puts a new one
// in its slot, in the background so that Read returns at once. If the new
// one fails to start the slot stays empty and the next acquire retries.
func (p *Pool) replace(old *instance) {
	p.replacing.Add(1)
	go func() {
		defer p.replacing.Done()
		old.stop()
		var next *instance
		select {
		case <-p.done:
		default:
			next, _ = start(p.binary, p.extra...)
		}
		p.slots <- next
	}()
}

// arguments checks the files and makes their paths absolute. exiftool
// reads its arguments one per line, strips leading blanks and skips lines
// starting with '#', so a path must not hold a line break; an absolute
// path cannot start with '-', '#' or a blank.
func arguments(path, sidecar string) ([]string, error) {
	if path == "" {
		return nil, errors.New("no file given")
	}
	var files []string
	for _, f := range []string{path, sidecar} {
		if f == "" {
			continue
		}
		abs, err := filepath.Abs(f)
		if err != nil {
			return nil, err
		}
		if strings.ContainsAny(abs, "\r\n") {
			return nil, fmt.Errorf("%q: path holds a line break", f)
		}
		st, err := os.Stat(abs)
		if err != nil {
			return nil, err
		}
		if !st.Mode().IsRegular() {
			return nil, fmt.Errorf("%s: not a regular file", f)
		}
		files = append(files, abs)
	}
	return files, nil
}

// inStep reports whether the process can be reused. go-exiftool reports
// pipe, buffer and JSON failures in Err; after them its reader may be
// stuck or out of step, so the process is replaced.
func inStep(fms []exiftool.FileMetadata) bool {
	for _, fm := range fms {
		if fm.Err != nil && !errors.Is(fm.Err, exiftool.ErrNotExist) && !errors.Is(fm.Err, exiftool.ErrNotFile) {
			return false
		}
	}
	return true
}

// decode turns exiftool's answers for the file (and sidecar) into Metadata.
func decode(fms []exiftool.FileMetadata) (*Metadata, error) {
	for _, fm := range fms {
		if fm.Err != nil {
			return nil, fmt.Errorf("read metadata of %s: %w", fm.File, fm.Err)
		}
		if msg, ok := text(fm.Fields["Error"]); ok {
			return nil, fmt.Errorf("read metadata of %s: %s: %w", fm.File, msg, ErrUnreadable)
		}
	}
	var sidecar map[string]any
	if len(fms) > 1 {
		sidecar = fms[1].Fields
	}
	return parse(fms[0].Fields, sidecar), nil
}
