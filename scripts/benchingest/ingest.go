package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// client talks to the server with an API key.
type client struct {
	base, key string
	http      *http.Client
}

func (c *client) do(req *http.Request, want int, into any) error {
	req.Header.Set("Authorization", "Bearer "+c.key)
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != want {
		return fmt.Errorf("%s %s: %d %s", req.Method, req.URL.Path, resp.StatusCode, body)
	}
	if into != nil {
		return json.Unmarshal(body, into)
	}
	return nil
}

// upload streams one file as POST /api/assets and expects 201.
func (c *client) upload(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	const boundary = "benchingest-boundary-7d3f"
	head := "--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"" +
		filepath.Base(path) + "\"\r\nContent-Type: image/jpeg\r\n\r\n"
	tail := "\r\n--" + boundary + "--\r\n"
	req, err := http.NewRequest("POST", c.base+"/api/assets", io.MultiReader(strings.NewReader(head), f, strings.NewReader(tail)))
	if err != nil {
		return err
	}
	req.ContentLength = int64(len(head)) + fi.Size() + int64(len(tail))
	req.Header.Set("Content-Type", "multipart/form-data; boundary="+boundary)
	return c.do(req, http.StatusCreated, nil)
}

// task is the part of the API's Task the benchmark reads.
type task struct {
	ID         string     `json:"id"`
	Kind       string     `json:"kind"`
	State      string     `json:"state"`
	Error      *string    `json:"error"`
	CreatedAt  time.Time  `json:"created_at"`
	StartedAt  *time.Time `json:"started_at"`
	FinishedAt *time.Time `json:"finished_at"`
}

type taskPage struct {
	Data    []task `json:"data"`
	HasMore bool   `json:"has_more"`
}

// tasks lists every task, or the first page of those in a state.
func (c *client) tasks(state string, all bool) ([]task, error) {
	return c.taskPages(state, all, 200)
}

// anyTask reports whether a task is in state: one task's page, so that
// watching the queue costs the server (and the cores it shares with the
// client) next to nothing.
func (c *client) anyTask(state string) (bool, error) {
	t, err := c.taskPages(state, false, 1)
	return len(t) > 0, err
}

func (c *client) taskPages(state string, all bool, limit int) ([]task, error) {
	var out []task
	after := ""
	for {
		q := url.Values{"limit": {strconv.Itoa(limit)}}
		if state != "" {
			q.Set("state", state)
		}
		if after != "" {
			q.Set("starting_after_id", after)
		}
		req, err := http.NewRequest("GET", c.base+"/api/tasks?"+q.Encode(), nil)
		if err != nil {
			return nil, err
		}
		var page taskPage
		if err := c.do(req, http.StatusOK, &page); err != nil {
			return nil, err
		}
		out = append(out, page.Data...)
		if !all || !page.HasMore || len(page.Data) == 0 {
			return out, nil
		}
		after = page.Data[len(page.Data)-1].ID
	}
}

// ingestResult is what the photoctl run measured.
type ingestResult struct {
	files           int
	start           time.Time     // the first upload's start
	uploaded, total time.Duration // from start
	cpu             time.Duration // the server's, user + system
	startRSS        int64         // before the first upload
	peakRSS         int64
	perKind         map[string]int
	failed          []task
	all             []task
}

// ingest uploads every file (c.uploaders at a time) and waits until the
// server has no task queued or running; the ingest ends when its last task
// finished.
func ingest(c *client, files []string, uploaders, pid int) (*ingestResult, error) {
	cpu0, _ := processCPU(pid)
	resetPeakRSS(pid)
	rss0, _ := procStatus(pid, "VmRSS")
	start := time.Now()
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
	)
	next := make(chan string)
	for range uploaders {
		wg.Go(func() {
			for f := range next {
				if err := c.upload(f); err != nil {
					mu.Lock()
					first = err
					mu.Unlock()
				}
			}
		})
	}
	for _, f := range files {
		next <- f
	}
	close(next)
	wg.Wait()
	if first != nil {
		return nil, first
	}
	res := &ingestResult{files: len(files), start: start, uploaded: time.Since(start), perKind: map[string]int{}, startRSS: rss0}
	// The ingest's end is its last task's finished_at, so how often the
	// queue is watched does not change the figure; watching it costs CPU
	// on the cores the server is measured on.
	for {
		queued, err := c.anyTask("queued")
		if err != nil {
			return nil, err
		}
		running, err := c.anyTask("running")
		if err != nil {
			return nil, err
		}
		if !queued && !running {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	cpu1, _ := processCPU(pid)
	res.cpu = cpu1 - cpu0
	res.peakRSS, _ = procStatus(pid, "VmHWM")
	all, err := c.tasks("", true)
	if err != nil {
		return nil, err
	}
	end := start
	for _, t := range all {
		res.perKind[t.Kind]++
		if t.State == "failed" {
			res.failed = append(res.failed, t)
		}
		if t.FinishedAt != nil && t.FinishedAt.After(end) {
			end = *t.FinishedAt
		}
	}
	res.total = end.Sub(start)
	res.all = all
	return res, nil
}

// processCPU is the user + system CPU time of a process and of its
// children, from /proc: its own, that of children it has reaped (ffprobe,
// ffmpeg) and that of children still running (the long-lived exiftool
// processes), recursively.
func processCPU(pid int) (time.Duration, error) {
	if pid <= 0 {
		return 0, fmt.Errorf("no pid")
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The fields after the command name, which may hold spaces, in "()".
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	if len(f) < 15 {
		return 0, fmt.Errorf("short /proc/%d/stat", pid)
	}
	var ticks int64
	for _, i := range []int{11, 12, 13, 14} { // utime, stime, cutime, cstime
		v, err := strconv.ParseInt(f[i], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("parse /proc/%d/stat: %w", pid, err)
		}
		ticks += v
	}
	const hz = 100 // USER_HZ on Linux
	total := time.Duration(ticks) * time.Second / hz
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	for _, t := range tasks {
		list, _ := os.ReadFile(t)
		for _, child := range strings.Fields(string(list)) {
			if c, err := strconv.Atoi(child); err == nil {
				if d, err := processCPU(c); err == nil {
					total += d
				}
			}
		}
	}
	return total, nil
}

// procStatus reads a kB field (VmRSS, VmHWM) of /proc/PID/status in bytes.
func procStatus(pid int, field string) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("no %s in /proc/%d/status", field, pid)
}

// resetPeakRSS sets a process's VmHWM back to its current RSS (Linux 4.0
// and later), so the next reading is the peak of what follows.
func resetPeakRSS(pid int) {
	if pid > 0 {
		_ = os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", pid), []byte("5"), 0)
	}
}
