package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// run times the yardstick, photoctl's ingest, and the yardstick again
// (the machine's load drifts; the yardstick's figure is the mean of its
// two rounds) and prints the comparison.
func run(c runConfig) error {
	files, err := filepath.Glob(filepath.Join(c.dir, "photo-*.jpg"))
	if err != nil || len(files) == 0 {
		return fmt.Errorf("no photo-*.jpg in %s (run gen first)", c.dir)
	}
	sort.Strings(files)
	var bytes int64
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil {
			bytes += fi.Size()
		}
	}
	fmt.Printf("files: %d JPEGs, %.1f MB each on average\n", len(files), float64(bytes)/float64(len(files))/1e6)

	before, err := yardstick(files, c)
	if err != nil {
		return err
	}
	cl := &client{base: c.url, key: c.key, http: &http.Client{Timeout: 10 * time.Minute}}
	got, err := ingest(cl, files, c.uploaders, c.pid)
	if err != nil {
		return err
	}
	after, err := yardstick(files, c)
	if err != nil {
		return err
	}

	n := float64(len(files))
	base := (before.wall + after.wall) / 2
	baseCPU := (before.cpu + after.cpu) / 2
	ours := n / got.total.Seconds()
	theirs := n / base.Seconds()
	fmt.Printf("\n| run | wall | files/s | CPU ms/file |\n| --- | ---: | ---: | ---: |\n")
	fmt.Printf("| photoctl: upload + the task chain (uploads done at %.1f s) | %.1f s | %.2f | %.0f |\n",
		got.uploaded.Seconds(), got.total.Seconds(), ours, perFile(got.cpu, n))
	fmt.Printf("| vipsthumbnail 1440 + 250 px + exiftool -j, %d shards (rounds: %.1f s, %.1f s) | %.1f s | %.2f | %.0f |\n",
		c.shards, before.wall.Seconds(), after.wall.Seconds(), base.Seconds(), theirs, perFile(baseCPU, n))
	verdict := "ok"
	if ours/theirs < 1 {
		verdict = "MISSED"
	}
	fmt.Printf("\nratio photoctl / yardstick: %.2f (files/s; target >= 1.00) %s\n", ours/theirs, verdict)
	if got.cpu > 0 {
		fmt.Printf("ratio of CPU per file, yardstick / photoctl: %.2f\n", float64(baseCPU)/float64(got.cpu))
	}
	if got.peakRSS > 0 {
		fmt.Printf("server RSS: %.0f MiB before the ingest, peak during it (VmHWM) %.0f MiB\n",
			float64(got.startRSS)/(1<<20), float64(got.peakRSS)/(1<<20))
	}
	printKinds(got.all)
	printOccupancy(got.all, got.start, got.total)
	fmt.Printf("tasks: %v", got.perKind)
	if len(got.failed) > 0 {
		fmt.Printf("; %d FAILED, first: %s %s", len(got.failed), got.failed[0].Kind, deref(got.failed[0].Error))
	}
	fmt.Println()
	return nil
}

func perFile(d time.Duration, n float64) float64 { return float64(d.Milliseconds()) / n }

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// measured is one yardstick round: wall time, and the CPU time of the
// tools it ran.
type measured struct{ wall, cpu time.Duration }

// yardstick runs, in c.shards parallel shards of the files, what a
// minimal ingest with the same tools does: vipsthumbnail for the preview
// and for the thumbnail, then `exiftool -j -n` (as photoctl reads), each
// tool once per shard over all its files.
func yardstick(files []string, c runConfig) (measured, error) {
	out, err := os.MkdirTemp("", "benchingest-yardstick-*")
	if err != nil {
		return measured{}, err
	}
	defer os.RemoveAll(out)
	format := fmt.Sprintf(".webp[Q=%d,strip,effort=%d]", c.quality, c.effort)
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		cpu  time.Duration
		errs []error
	)
	start := time.Now()
	for s := range c.shards {
		var shard []string
		for i := s; i < len(files); i += c.shards {
			shard = append(shard, files[i])
		}
		if len(shard) == 0 {
			continue
		}
		wg.Go(func() {
			cmds := []*exec.Cmd{
				exec.Command("vipsthumbnail", append([]string{"-s", "1440", "-o", filepath.Join(out, "%s_preview"+format)}, shard...)...),
				exec.Command("vipsthumbnail", append([]string{"-s", "250", "-o", filepath.Join(out, "%s_thumbnail"+format)}, shard...)...),
				exec.Command("exiftool", append([]string{"-j", "-n"}, shard...)...),
			}
			for _, cmd := range cmds {
				var stderr strings.Builder
				cmd.Stdout, cmd.Stderr = io.Discard, &stderr
				err := cmd.Run()
				mu.Lock()
				if err != nil {
					errs = append(errs, fmt.Errorf("%s: %w: %s", cmd.Args[0], err, stderr.String()))
				} else {
					cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(errs) > 0 {
		return measured{}, errs[0]
	}
	return measured{wall: time.Since(start), cpu: cpu}, nil
}

// printKinds prints, per task kind, how long its runs took and waited.
func printKinds(all []task) {
	type stat struct {
		n          int
		run, queue time.Duration
	}
	by := map[string]*stat{}
	var kinds []string
	for _, t := range all {
		if t.StartedAt == nil || t.FinishedAt == nil {
			continue
		}
		s := by[t.Kind]
		if s == nil {
			s = &stat{}
			by[t.Kind] = s
			kinds = append(kinds, t.Kind)
		}
		s.n++
		s.run += t.FinishedAt.Sub(*t.StartedAt)
		s.queue += t.StartedAt.Sub(t.CreatedAt)
	}
	sort.Strings(kinds)
	fmt.Printf("\n| task kind | runs | mean run | mean wait in the queue |\n| --- | ---: | ---: | ---: |\n")
	for _, k := range kinds {
		s := by[k]
		fmt.Printf("| %s | %d | %.0f ms | %.0f ms |\n", k, s.n, float64(s.run.Milliseconds())/float64(s.n),
			float64(s.queue.Milliseconds())/float64(s.n))
	}
	fmt.Println()
}

// printOccupancy prints how long, over the ingest's wall time from start,
// 0, 1, 2, ... tasks were running at once: time with fewer tasks than the
// server's task slots is a core left idle or waiting on the disk.
func printOccupancy(all []task, start time.Time, total time.Duration) {
	type edge struct {
		at    time.Time
		delta int
		kind  string
	}
	var edges []edge
	firstQueued := start.Add(total)
	for _, t := range all {
		if t.StartedAt != nil && t.FinishedAt != nil {
			edges = append(edges, edge{*t.StartedAt, 1, t.Kind}, edge{*t.FinishedAt, -1, t.Kind})
		}
		if t.CreatedAt.Before(firstQueued) {
			firstQueued = t.CreatedAt
		}
	}
	sort.Slice(edges, func(i, j int) bool { return edges[i].at.Before(edges[j].at) })
	if len(edges) > 0 {
		fmt.Printf("first task queued %.2f s and started %.2f s after the first upload began\n",
			firstQueued.Sub(start).Seconds(), edges[0].at.Sub(start).Seconds())
	}
	at := map[int]time.Duration{}
	alone := map[string]time.Duration{} // time each kind ran with no other task beside it
	kinds := map[string]int{}           // the kinds running
	var idle []string                   // the longer stretches with no task running
	running, prev := 0, start
	for _, e := range edges {
		if e.at.After(prev) {
			at[running] += e.at.Sub(prev)
			if d := e.at.Sub(prev); running == 0 && d >= 50*time.Millisecond {
				idle = append(idle, fmt.Sprintf("%.2f s at %.2f s", d.Seconds(), prev.Sub(start).Seconds()))
			}
			if running == 1 {
				for k, n := range kinds {
					if n > 0 {
						alone[k] += e.at.Sub(prev)
					}
				}
				if d := e.at.Sub(prev); d >= 30*time.Millisecond && os.Getenv("BENCH_ALONE") != "" {
					fmt.Printf("alone %.3f s at %.2f s\n", d.Seconds(), prev.Sub(start).Seconds())
				}
			}
			prev = e.at
		}
		running += e.delta
		kinds[e.kind] += e.delta
	}
	if len(alone) > 0 {
		var parts []string
		for k, d := range alone {
			parts = append(parts, fmt.Sprintf("%s %.2f s", k, d.Seconds()))
		}
		sort.Strings(parts)
		fmt.Printf("running alone: %s\n", strings.Join(parts, ", "))
	}
	if len(idle) > 0 {
		fmt.Printf("no task running for %s\n", strings.Join(idle, ", "))
	}
	var parts []string
	for k := 0; len(at) > 0; k++ {
		if d, ok := at[k]; ok {
			parts = append(parts, fmt.Sprintf("%d: %.1f s", k, d.Seconds()))
			delete(at, k)
		}
	}
	fmt.Printf("tasks running at once, time at each count over the %.1f s: %s\n", total.Seconds(), strings.Join(parts, ", "))
}
