//go:build unix

package exif_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/ingest/exif"
)

// fakeExiftool writes a shell script to use as Config.Binary. Every
// process it starts appends its pid to dir/pids and then runs body, where
// $EXIFTOOL is the real exiftool and $DIR the script's directory. `exec`
// keeps the pid, so the pid is the process the pool started.
func fakeExiftool(t *testing.T, body string) (script, dir string) {
	t.Helper()
	needTool(t, "exiftool")
	real, err := exec.LookPath("exiftool")
	require.NoError(t, err)
	dir = t.TempDir()
	script = filepath.Join(dir, "exiftool")
	src := fmt.Sprintf("#!/bin/sh\nEXIFTOOL=%q\nDIR=%q\necho $$ >> \"$DIR/pids\"\n%s\n", real, dir, body)
	require.NoError(t, os.WriteFile(script, []byte(src), 0o755))
	return script, dir
}

// pids lists the processes a fake exiftool started.
func pids(t *testing.T, dir string) []int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "pids"))
	require.NoError(t, err)
	var out []int
	for _, f := range strings.Fields(string(b)) {
		pid, err := strconv.Atoi(f)
		require.NoError(t, err)
		out = append(out, pid)
	}
	return out
}

// gone reports whether a process has exited and been reaped.
func gone(pid int) bool { return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) }

func TestPoolKillsAndReplacesAHungExiftool(t *testing.T) {
	// The first process hangs like exiftool stuck on a pathological file;
	// the ones started after it are the real exiftool.
	script, dir := fakeExiftool(t, `if mkdir "$DIR/hung" 2>/dev/null; then exec sleep 300; fi
exec "$EXIFTOOL" "$@"`)
	// The timeout includes the first command's start-up of a fresh
	// exiftool (perl compiling its modules): half a second is too tight,
	// and two seconds were under -race on a machine loaded 7 times over.
	const timeout = 5 * time.Second
	p := newPool(t, exif.Config{Processes: 1, Timeout: timeout, Binary: script})
	img := photo(t, "-Rating=3")

	began := time.Now()
	_, err := p.Read(t.Context(), img, "")
	took := time.Since(began)
	require.ErrorIs(t, err, exif.ErrTimeout)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.Less(t, took, timeout+time.Second, "Read returns at the timeout")

	hung := pids(t, dir)[0]
	require.Eventually(t, func() bool { return gone(hung) }, 5*time.Second, 10*time.Millisecond,
		"the hung process is killed and reaped")

	got, err := p.Read(t.Context(), img, "")
	require.NoError(t, err, "a new process took the slot")
	require.Equal(t, ptr(3.0), got.Rating)
	require.Len(t, pids(t, dir), 2)
}

func TestReadGivesUpWithItsContext(t *testing.T) {
	script, _ := fakeExiftool(t, "exec sleep 300")
	p := newPool(t, exif.Config{Processes: 1, Timeout: time.Minute, Binary: script})
	img := photo(t)

	busy, cancelBusy := context.WithCancel(t.Context())
	first := make(chan error, 1)
	go func() {
		_, err := p.Read(busy, img, "")
		first <- err
	}()
	time.Sleep(100 * time.Millisecond) // let the first Read take the only process

	waiting, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	_, err := p.Read(waiting, img, "")
	require.ErrorIs(t, err, context.DeadlineExceeded, "waiting for a process is bounded by the caller")
	require.NotErrorIs(t, err, exif.ErrTimeout)

	cancelBusy()
	select {
	case err := <-first:
		require.ErrorIs(t, err, context.Canceled, "a Read in progress stops when its caller cancels")
	case <-time.After(5 * time.Second):
		t.Fatal("the cancelled Read did not return")
	}
}

func TestCloseStopsEveryProcess(t *testing.T) {
	script, dir := fakeExiftool(t, `exec "$EXIFTOOL" "$@"`)
	needTool(t, "exiftool")
	p, err := exif.NewPool(exif.Config{Processes: 3, Binary: script})
	require.NoError(t, err)
	_, err = p.Read(t.Context(), photo(t), "")
	require.NoError(t, err)

	started := pids(t, dir)
	require.Len(t, started, 3, "NewPool starts every process")
	require.NoError(t, p.Close())
	for _, pid := range started {
		require.True(t, gone(pid), "process %d still runs", pid)
	}

	_, err = p.Read(t.Context(), photo(t), "")
	require.ErrorIs(t, err, exif.ErrClosed)
	require.NoError(t, p.Close(), "Close is idempotent")
}

func TestConcurrentReadsEachGetTheirOwnFile(t *testing.T) {
	t.Parallel()
	p := newPool(t, exif.Config{Processes: 3})
	files := make([]string, 8)
	for i := range files {
		files[i] = photo(t, fmt.Sprintf("-ImageDescription=photo %d", i), fmt.Sprintf("-Rating=%d", i%6))
	}

	var wg sync.WaitGroup
	for i := range 48 {
		wg.Go(func() {
			n := i % len(files)
			got, err := p.Read(t.Context(), files[n], "")
			if assert.NoError(t, err) {
				assert.Equal(t, fmt.Sprintf("photo %d", n), *got.Description)
				assert.Equal(t, float64(n%6), *got.Rating)
			}
		})
	}
	wg.Wait()
}

// dead reports whether a process has exited, reaped or not (an orphan's
// zombie waits for init).
func dead(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return gone(pid)
	}
	_, rest, _ := strings.Cut(string(b), ") ")
	return strings.HasPrefix(rest, "Z")
}

// exiftool -stay_open ignores the end of its input: without the guard, a
// photoctl killed with SIGKILL left its exiftool processes polling a dead
// pipe for ever. The owner here is this test binary run again as a helper
// that opens a pool and waits to be killed.
func TestProcessesDieWithTheirOwner(t *testing.T) {
	if dir := os.Getenv("PHOTOCTL_EXIF_OWNER_DIR"); dir != "" {
		p, err := exif.NewPool(exif.Config{Processes: 2, Binary: filepath.Join(dir, "exiftool")})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		_ = os.WriteFile(filepath.Join(dir, "ready"), nil, 0o600)
		time.Sleep(time.Minute)
		_ = p.Close()
		os.Exit(0)
	}
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("needs /proc (Linux)")
	}
	if _, err := exec.LookPath("setpriv"); err != nil {
		t.Skip("setpriv (util-linux) is not installed: the guard is off")
	}
	_, dir := fakeExiftool(t, `exec "$EXIFTOOL" "$@"`)
	tmp := t.TempDir() // where the owner's guard lives
	owner := exec.Command(os.Args[0], "-test.run=^TestProcessesDieWithTheirOwner$")
	owner.Env = append(os.Environ(), "PHOTOCTL_EXIF_OWNER_DIR="+dir, "TMPDIR="+tmp)
	owner.Stderr = os.Stderr
	require.NoError(t, owner.Start())
	require.Eventually(t, func() bool {
		_, err := os.Stat(filepath.Join(dir, "ready"))
		b, _ := os.ReadFile(filepath.Join(dir, "pids"))
		return err == nil && len(strings.Fields(string(b))) == 2
	}, 30*time.Second, 20*time.Millisecond, "the owner opens its pool and both processes start")
	started := pids(t, dir)
	require.NoError(t, owner.Process.Kill())
	_ = owner.Wait()
	for _, pid := range started {
		require.Eventually(t, func() bool { return dead(pid) }, 5*time.Second, 20*time.Millisecond,
			"exiftool %d outlived the process that started it", pid)
	}

	// The killed owner could not remove its guard's directory; the next
	// pool on the host does.
	orphans, err := filepath.Glob(filepath.Join(tmp, fmt.Sprintf("photoctl-exiftool-%d-*", owner.Process.Pid)))
	require.NoError(t, err)
	require.Len(t, orphans, 1)
	t.Setenv("TMPDIR", tmp)
	p, err := exif.NewPool(exif.Config{Processes: 1, Binary: filepath.Join(dir, "exiftool")})
	require.NoError(t, err)
	t.Cleanup(func() { _ = p.Close() })
	require.NoDirExists(t, orphans[0])
	mine, err := filepath.Glob(filepath.Join(tmp, fmt.Sprintf("photoctl-exiftool-%d-*", os.Getpid())))
	require.NoError(t, err)
	require.Len(t, mine, 1, "this process's own guard stays while its pool is open")
}
