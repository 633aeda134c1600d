package assets

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"hash"
	"io"
	"mime"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// downloader writes originals into a folder tree. Files are written as
// .NAME.ASSETID.part beside their target, verified against the asset's
// checksum and renamed into place; a .part left by an interrupted run is
// continued with a range request (originals never change, so the part
// named after the asset is always a prefix of it).
type downloader struct {
	conn   *cmdutil.APIConn
	dir    string
	byDate bool
	mu     sync.Mutex
	// claimed maps a target path to the asset writing it in this run, so
	// that two assets with one name do not write the same file.
	claimed map[string]string
}

func (d *downloader) download(ctx context.Context, a *api.Asset) DownloadResult {
	res := DownloadResult{ID: a.ID, Status: "failed"}
	dir := targetDir(d.dir, d.byDate, a)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		res.Reason = err.Error()
		return res
	}
	target, exists, err := d.pickTarget(dir, a)
	if err != nil {
		res.Reason = err.Error()
		return res
	}
	res.Path = target
	if exists {
		res.Status = "exists"
		return res
	}
	n, err := d.fetch(ctx, a, target)
	if err != nil {
		res.Reason = err.Error()
		return res
	}
	res.Status, res.Bytes = "downloaded", n
	return res
}

// pickTarget chooses the file name: the original name, or NAME-ASSETID
// when another asset's file has the name. exists is true when the target
// already holds this asset's bytes.
func (d *downloader) pickTarget(dir string, a *api.Asset) (string, bool, error) {
	name := safeFileName(a)
	ext := filepath.Ext(name)
	candidates := []string{name, strings.TrimSuffix(name, ext) + "-" + a.ID + ext}
	for _, c := range candidates {
		path := filepath.Join(dir, c)
		d.mu.Lock()
		owner, taken := d.claimed[path]
		if !taken {
			d.claimed[path] = a.ID
		}
		d.mu.Unlock()
		if taken && owner != a.ID {
			continue
		}
		sum, err := fileChecksum(path)
		switch {
		case errors.Is(err, os.ErrNotExist):
			return path, false, nil
		case err != nil:
			return "", false, err
		case sum == a.Checksum:
			return path, true, nil
		}
	}
	return "", false, fmt.Errorf("%s and %s hold other files", candidates[0], candidates[1])
}

// fetch downloads a's original into target through its .part file and
// returns the bytes received.
func (d *downloader) fetch(ctx context.Context, a *api.Asset, target string) (int64, error) {
	part := filepath.Join(filepath.Dir(target), "."+filepath.Base(target)+"."+a.ID+".part")
	for attempt := 0; ; attempt++ {
		n, err := d.fetchOnce(ctx, a, part)
		if errors.Is(err, errChecksumMismatch) && attempt == 0 {
			os.Remove(part) // start over once from scratch
			continue
		}
		if err != nil {
			return n, err
		}
		if err := os.Rename(part, target); err != nil {
			return n, err
		}
		if !a.FileModifiedAt.IsZero() {
			_ = os.Chtimes(target, time.Now(), a.FileModifiedAt)
		}
		return n, nil
	}
}

var errChecksumMismatch = errors.New("checksum mismatch")

func (d *downloader) fetchOnce(ctx context.Context, a *api.Asset, part string) (int64, error) {
	f, err := os.OpenFile(part, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	h := sha256.New()
	offset, err := io.Copy(h, f) // hash what an earlier run wrote
	if err != nil {
		return 0, err
	}
	dl, err := d.conn.DownloadOriginal(ctx, a.ID, offset, "")
	if err != nil {
		return 0, err
	}
	defer dl.Body.Close()
	if dl.Offset != offset { // the server sent the whole file
		if err := f.Truncate(0); err != nil {
			return 0, err
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return 0, err
		}
		h.Reset()
	}
	n, err := io.Copy(io.MultiWriter(f, h), dl.Body)
	if err != nil {
		return n, fmt.Errorf("download %s: %w", a.ID, err)
	}
	if err := f.Sync(); err != nil {
		return n, err
	}
	if got := encodeSum(h); got != a.Checksum {
		return n, fmt.Errorf("download %s: %w (got %s, want %s)", a.ID, errChecksumMismatch, got, a.Checksum)
	}
	return n, nil
}

// fileChecksum is the base64 SHA-256 of the file at path.
func fileChecksum(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return encodeSum(h), nil
}

func encodeSum(h hash.Hash) string { return base64.StdEncoding.EncodeToString(h.Sum(nil)) }

// safeFileName is the asset's original name made safe as one path
// element, or its id with an extension from its type.
func safeFileName(a *api.Asset) string {
	name := filepath.Base(strings.ReplaceAll(a.OriginalFileName, `\`, "/"))
	name = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == '/' {
			return -1
		}
		return r
	}, name)
	if name == "" || name == "." || name == ".." || strings.HasPrefix(name, ".") {
		ext := ""
		if exts, _ := mime.ExtensionsByType(a.MIMEType); len(exts) > 0 {
			ext = exts[0]
		}
		name = a.ID + ext
	}
	return name
}
