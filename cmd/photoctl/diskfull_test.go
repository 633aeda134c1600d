package main

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/servertest"
)

// mountSmallFS mounts a 32 MiB tmpfs on a fresh directory and returns it.
// It skips the test when mounting is not permitted (not root, no
// CAP_SYS_ADMIN), except under CI=true, where the runner is root and the
// test must run.
func mountSmallFS(t *testing.T) string {
	dir := t.TempDir()
	err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=32m,mode=0700")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("mount a 32 MiB tmpfs (CI runs as root): %v", err)
		}
		t.Skipf("cannot mount a small filesystem here (%v): run as root to test a full disk", err)
	}
	// Detached: a file the stopped server left open (its blob root) must
	// not keep the mount alive.
	t.Cleanup(func() { require.NoError(t, syscall.Unmount(dir, syscall.MNT_DETACH)) })
	return dir
}

// fill writes a file at p until the filesystem is full.
func fill(t *testing.T, p string) {
	f, err := os.Create(p)
	require.NoError(t, err)
	defer f.Close()
	buf := make([]byte, 64<<10)
	for {
		if _, err := f.Write(buf); err != nil {
			require.True(t, errors.Is(err, syscall.ENOSPC), "fill: %v", err)
			break
		}
	}
	// Smaller writes take the last partial pages too.
	for _, n := range []int{4096, 512, 1} {
		for {
			if _, err := f.Write(buf[:n]); err != nil {
				break
			}
		}
	}
}

// TestUploadOnAFullDiskAnswers507 runs the server with its data directory
// on a 32 MiB filesystem, fills it, and checks that uploads answer 507
// with a clear detail and leave nothing behind, that reads keep working,
// and that uploads succeed again once space is freed.
func TestUploadOnAFullDiskAnswers507(t *testing.T) {
	dataDir := mountSmallFS(t) // registered first: unmounted after the server stops
	s := servertest.Start(t, func(c *app.Config) { c.DataDir = dataDir })
	_, tok := s.Session()
	var kept []api.Asset
	for i := range 5 {
		kept = append(kept, s.UploadAsset(tok, fmt.Sprintf("k%d.jpg", i), servertest.JPEG(t, 64, 64, i), nil))
	}
	filler := filepath.Join(dataDir, "filler")
	fill(t, filler)

	for i := range 3 {
		r := s.Upload(tok, "full.jpg", servertest.JPEG(t, 512, 512, 100+i), nil)
		require.Equal(t, http.StatusInsufficientStorage, r.Status, "upload on a full disk: %s", r.Body)
		detail, _ := r.Map(t)["detail"].(string)
		require.Contains(t, detail, "insufficient storage", "the detail says why: %q", detail)
	}
	tmp, err := os.ReadDir(filepath.Join(dataDir, "tmp"))
	require.NoError(t, err)
	require.Empty(t, tmp, "no temporary file is left")
	require.Len(t, servertest.BlobNames(t, dataDir, "originals"), len(kept), "no original is half-written")
	list := servertest.List[api.Asset](s, tok, "/api/assets?limit=200&state=all")
	require.Len(t, list, len(kept), "no record of a refused upload")

	// Reads keep working on a full disk.
	for _, a := range kept {
		r := s.Do("GET", "/api/assets/"+a.ID+"/original", tok, nil)
		require.Equal(t, http.StatusOK, r.Status)
		require.Equal(t, http.StatusOK, s.Do("GET", "/api/assets/"+a.ID, tok, nil).Status)
	}

	// Edits write only the database: they succeed while its files have
	// room, else answer 507 too, never 500.
	for i := range 50 {
		r := s.Do("PATCH", "/api/assets/"+kept[i%len(kept)].ID, tok, map[string]any{"description": strings.Repeat("x", 10000)})
		require.Contains(t, []int{http.StatusOK, http.StatusInsufficientStorage}, r.Status, "edit on a full disk: %s", r.Body)
	}

	require.NoError(t, os.Remove(filler))
	a := s.UploadAsset(tok, "again.jpg", servertest.JPEG(t, 512, 512, 200), nil)
	require.Equal(t, http.StatusOK, s.Do("GET", "/api/assets/"+a.ID+"/original", tok, nil).Status)
}
