package importer

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
)

// mediaExtensions are the file extensions the server stores (it sniffs the
// content; the extension only decides what is worth sending).
var mediaExtensions = map[string]bool{
	".jpg": true, ".jpeg": true, ".jpe": true, ".png": true, ".webp": true, ".gif": true,
	".heic": true, ".heif": true, ".avif": true, ".tif": true, ".tiff": true,
	".dng": true, ".cr2": true, ".cr3": true, ".nef": true, ".arw": true, ".orf": true,
	".rw2": true, ".raf": true, ".pef": true, ".srw": true,
	".mp4": true, ".mov": true, ".m4v": true, ".mkv": true, ".webm": true, ".avi": true, ".3gp": true,
}

// IsMedia reports whether name has the extension of a photo or video the
// server stores.
func IsMedia(name string) bool { return mediaExtensions[strings.ToLower(filepath.Ext(name))] }

// file is one candidate for upload found by the walk.
type file struct {
	root    *root
	rel     string // slash-separated, relative to root.dir
	path    string // as the user would name it: the root as given joined with rel
	size    int64
	modTime time.Time
	sidecar string // path of its XMP sidecar, "" if none
}

// root is one argument of the upload: a folder, or a file (whose folder is
// then the root, so that the hash index lives by folder).
type root struct {
	dir   string // absolute
	shown string // as given, for messages
	only  string // base name of the file when the argument was a file
}

// walker lists the files under the roots, applying the filters.
type walker struct {
	recursive        bool
	include, exclude []*regexp.Regexp
	counters         *counters
}

// walk sends every candidate file of r to files and every file passed over
// to skips, folder by folder in name order. It stops early when ctx ends.
func (w *walker) walk(ctx context.Context, r *root, files chan<- file, skips chan<- outcome) error {
	return w.walkDir(ctx, r, "", files, skips)
}

func (w *walker) walkDir(ctx context.Context, r *root, rel string, files chan<- file, skips chan<- outcome) error {
	dir := filepath.Join(r.dir, filepath.FromSlash(rel))
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("read folder %s: %w", shownPath(r, rel), err)
	}
	names := make(map[string]string, len(entries)) // lower-case name -> name, for sidecars
	for _, e := range entries {
		names[strings.ToLower(e.Name())] = e.Name()
	}
	var subdirs []string
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return err
		}
		name := e.Name()
		if r.only != "" && name != r.only {
			continue
		}
		childRel := joinRel(rel, name)
		shown := shownPath(r, childRel)
		if strings.HasPrefix(name, ".") && r.only == "" {
			continue // hidden files and folders (.DS_Store, .thumbnails, .git)
		}
		if w.excluded(childRel, name) {
			reason := "excluded by --exclude"
			if e.IsDir() {
				reason = "folder excluded by --exclude"
			}
			if !send(ctx, skips, skipped(shown, reason)) {
				return ctx.Err()
			}
			continue
		}
		info, err := e.Info()
		if err != nil {
			if !send(ctx, skips, failed(shown, "unreadable: "+err.Error())) {
				return ctx.Err()
			}
			continue
		}
		if info.Mode()&fs.ModeSymlink != 0 {
			if info, err = os.Stat(filepath.Join(dir, name)); err != nil {
				if !send(ctx, skips, skipped(shown, "broken symbolic link")) {
					return ctx.Err()
				}
				continue
			}
			if info.IsDir() {
				if !send(ctx, skips, skipped(shown, "symbolic link to a folder (not followed)")) {
					return ctx.Err()
				}
				continue
			}
		}
		switch {
		case info.IsDir():
			if w.recursive {
				subdirs = append(subdirs, childRel)
			}
			continue
		case !info.Mode().IsRegular():
			continue // sockets, devices, pipes
		case isSidecar(name):
			continue // sent with its photo
		case !IsMedia(name):
			if !send(ctx, skips, skipped(shown, "not a photo or video")) {
				return ctx.Err()
			}
			continue
		case !w.included(childRel, name):
			if !send(ctx, skips, skipped(shown, "not matched by --include")) {
				return ctx.Err()
			}
			continue
		}
		f := file{root: r, rel: childRel, path: shown, size: info.Size(), modTime: info.ModTime()}
		if sc := sidecarOf(name, names); sc != "" {
			f.sidecar = filepath.Join(dir, sc)
		}
		w.counters.found.Add(1)
		w.counters.foundBytes.Add(f.size)
		if !send(ctx, files, f) {
			return ctx.Err()
		}
	}
	for _, sub := range subdirs {
		if err := w.walkDir(ctx, r, sub, files, skips); err != nil {
			if ctx.Err() != nil {
				return err
			}
			// An unreadable subfolder is reported, the rest goes on.
			if !send(ctx, skips, failed(shownPath(r, sub), err.Error())) {
				return ctx.Err()
			}
		}
	}
	return nil
}

func skipped(path, reason string) outcome {
	return outcome{Result: Result{Path: path, Status: StatusSkipped, Reason: reason}}
}

func failed(path, reason string) outcome {
	return outcome{Result: Result{Path: path, Status: StatusFailed, Reason: reason}}
}

func send[T any](ctx context.Context, ch chan<- T, v T) bool {
	select {
	case ch <- v:
		return true
	case <-ctx.Done():
		return false
	}
}

func joinRel(rel, name string) string {
	if rel == "" {
		return name
	}
	return rel + "/" + name
}

func shownPath(r *root, rel string) string {
	if r.only != "" {
		return r.shown
	}
	return filepath.Join(r.shown, filepath.FromSlash(rel))
}

func isSidecar(name string) bool { return strings.EqualFold(filepath.Ext(name), ".xmp") }

// sidecarOf finds the XMP sidecar of a photo among the folder's names:
// IMG_1.JPG.xmp (darktable, digiKam) first, then IMG_1.xmp (Lightroom).
func sidecarOf(name string, names map[string]string) string {
	lower := strings.ToLower(name)
	if sc, ok := names[lower+".xmp"]; ok {
		return sc
	}
	if sc, ok := names[strings.TrimSuffix(lower, filepath.Ext(lower))+".xmp"]; ok {
		return sc
	}
	return ""
}

func (w *walker) excluded(rel, name string) bool { return matchAny(w.exclude, rel, name) }

func (w *walker) included(rel, name string) bool {
	return len(w.include) == 0 || matchAny(w.include, rel, name)
}

func matchAny(patterns []*regexp.Regexp, rel, name string) bool {
	return slices.ContainsFunc(patterns, func(p *regexp.Regexp) bool { return p.MatchString(rel) || p.MatchString(name) })
}

// compileGlob turns a glob into a regular expression over slash-separated
// relative paths: * and ? stay within one folder, ** crosses folders,
// [...] is a character class. Matching ignores case, as photo folders
// mix IMG_1.JPG and img_2.jpg.
func compileGlob(glob string) (*regexp.Regexp, error) {
	var b strings.Builder
	b.WriteString("(?i)^")
	g := filepath.ToSlash(glob)
	for i := 0; i < len(g); i++ {
		switch c := g[i]; c {
		case '*':
			if i+1 < len(g) && g[i+1] == '*' {
				i++
				if i+1 < len(g) && g[i+1] == '/' {
					i++
					b.WriteString("(?:.*/)?")
				} else {
					b.WriteString(".*")
				}
			} else {
				b.WriteString("[^/]*")
			}
		case '?':
			b.WriteString("[^/]")
		case '[':
			end := strings.IndexByte(g[i+1:], ']')
			if end < 0 {
				return nil, fmt.Errorf("pattern %q: unclosed [", glob)
			}
			class := g[i+1 : i+1+end]
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			b.WriteString("[" + strings.ReplaceAll(class, `\`, `\\`) + "]")
			i += end + 1
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil, fmt.Errorf("pattern %q: %w", glob, err)
	}
	return re, nil
}
