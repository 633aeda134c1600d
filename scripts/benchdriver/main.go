// Command benchdriver measures a running photoctl server through its HTTP
// API, as scripts/bench sets it up: list, bbox and capture-time pages,
// counts and geo-clusters (when the server has them), upload throughput
// against the disk's own write speed, and the server's peak RSS during a
// 1 GiB upload. It uses the standard library only.
//
// Each latency scenario runs its requests one after another over one
// keep-alive connection, so the figures are the server's answer time plus
// loopback, not queueing.
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

type config struct {
	url, key, dataDir     string
	n, warm, walkPages    int
	uploads, workers, pid int
	uploadMB              float64
	bigUpload             int64
	seed                  uint64
}

func main() {
	var cfg config
	flag.StringVar(&cfg.url, "url", "http://127.0.0.1:2283", "server base `URL`")
	flag.StringVar(&cfg.key, "key", os.Getenv("BENCH_API_KEY"), "API key with asset.read and asset.upload (default $BENCH_API_KEY)")
	flag.StringVar(&cfg.dataDir, "data-dir", "", "the server's data `DIR`: the disk-speed files go there (required with -uploads)")
	flag.IntVar(&cfg.n, "n", 300, "timed requests per latency scenario")
	flag.IntVar(&cfg.warm, "warmup", 20, "untimed requests before each scenario")
	flag.IntVar(&cfg.walkPages, "walk-pages", 0, "stop the first walk after `N` pages of 200 (0: walk everything)")
	flag.IntVar(&cfg.uploads, "uploads", 100, "files in the upload throughput test (0: skip uploads)")
	flag.Float64Var(&cfg.uploadMB, "upload-mb", 5, "approximate size of each upload in MB")
	flag.IntVar(&cfg.workers, "workers", 4, "parallel uploads, and parallel writers of the disk test")
	flag.Int64Var(&cfg.bigUpload, "big-upload-bytes", 1<<30, "size of the single big upload (0: skip)")
	flag.IntVar(&cfg.pid, "pid", 0, "`PID` of the server, to read its RSS from /proc")
	flag.Uint64Var(&cfg.seed, "seed", 1, "random seed for cursors, boxes and windows")
	flag.Parse()
	if cfg.key == "" {
		fmt.Fprintln(os.Stderr, "benchdriver: an API key is required (-key or $BENCH_API_KEY)")
		os.Exit(2)
	}
	if cfg.uploads > 0 && cfg.dataDir == "" {
		fmt.Fprintln(os.Stderr, "benchdriver: -data-dir is required with -uploads")
		os.Exit(2)
	}
	if err := run(cfg); err != nil {
		fmt.Fprintln(os.Stderr, "benchdriver:", err)
		os.Exit(1)
	}
}

func run(cfg config) error {
	r := rand.New(rand.NewPCG(cfg.seed, cfg.seed+1))
	c := newClient(strings.TrimRight(cfg.url, "/"), cfg.key, max(cfg.workers, 1))
	rss := &rssMeter{pid: cfg.pid}
	rss.peak("serve peak RSS from its start (migrations included)", 0)
	jpg, err := sizedJPEG(r, int64(cfg.uploadMB*1e6))
	if err != nil {
		return err
	}
	run := fmt.Sprintf("%x", time.Now().UnixNano())
	// The big upload goes first, so that its peak is not hidden under
	// what the list scenarios leave resident (SQLite's page caches).
	if cfg.bigUpload > 0 {
		fmt.Fprintf(os.Stderr, "benchdriver: one upload of %s\n", mb(cfg.bigUpload))
		took, err := c.bigUpload(jpg, cfg.bigUpload, run)
		if err != nil {
			return fmt.Errorf("big upload: %w", err)
		}
		fmt.Printf("big upload: %s in %.1fs (%.0f MB/s)\n", mb(cfg.bigUpload), took.Seconds(),
			float64(cfg.bigUpload)/1e6/took.Seconds())
		rss.peak("serve peak RSS during the big upload", 100e6)
	}
	fmt.Fprintln(os.Stderr, "benchdriver: walking the library to collect cursors")
	walk, sm, err := c.walk(r, cfg.walkPages)
	if err != nil {
		return err
	}
	fmt.Printf("library: %d live assets seen by the walk, capture times %s to %s\n\n",
		sm.assets, sm.earliest.Format("2006-01-02"), sm.latest.Format("2006-01-02"))

	routes, err := c.routes()
	if err != nil {
		return err
	}
	scenarios := []struct {
		name   string
		target time.Duration
		path   func(i int) string
	}{
		{"list: first page of 100", 5 * time.Millisecond, func(int) string { return "/api/assets?limit=100" }},
		{"list: page of 100 at a random cursor", 5 * time.Millisecond, func(int) string { return listPath(r, sm) }},
		{"bbox: page of 100, 1°×1° box around a photo", 20 * time.Millisecond, func(int) string { return bboxPath(r, sm) }},
		{"bbox: page of 100, region or world box", 20 * time.Millisecond, func(int) string { return bigBoxPath(r) }},
		{"capture window: page of 100, month, offsetless", 5 * time.Millisecond, func(int) string { return windowPath(r, sm, false) }},
		{"capture window: page of 100, month, with offset", 5 * time.Millisecond, func(int) string { return windowPath(r, sm, true) }},
		{"counts by month", 50 * time.Millisecond, func(int) string { return "/api/assets/counts?bucket=month" }},
		{"geo-clusters: world, 2° cells", 100 * time.Millisecond,
			func(int) string { return "/api/assets/geo-clusters?bbox=-180,-90,180,90&cell_size=2" }},
	}
	rows := [][]string{{"scenario", "n", "p50 ms", "p95 ms", "p99 ms", "max ms", "req/s", "KiB/resp", "target", "result"}, latencyRow(walk)}
	for _, sc := range scenarios {
		route, _, _ := strings.Cut(sc.path(0), "?")
		if !routes[route] {
			rows = append(rows, latencyRow(&stats{name: sc.name, target: sc.target, err: errNotAvailable}))
			continue
		}
		fmt.Fprintf(os.Stderr, "benchdriver: %s\n", sc.name)
		rows = append(rows, latencyRow(c.run(sc.name, sc.target, cfg.warm, cfg.n, sc.path)))
	}
	printTable(rows)
	fmt.Println()
	rss.peak("serve peak RSS during the list scenarios", 0)
	if cfg.uploads > 0 {
		if err := throughput(c, cfg, jpg, run); err != nil {
			return err
		}
		rss.peak("serve peak RSS during the uploads", 0)
	}
	if load, err := os.ReadFile("/proc/loadavg"); err == nil {
		fmt.Printf("load average at the end (1, 5, 15 min): %s\n", strings.Join(strings.Fields(string(load))[:3], " "))
	}
	return nil
}

// throughputRounds is how often the upload and disk tests alternate; the
// medians are reported, since a virtual disk's speed varies from one
// second to the next.
const throughputRounds = 3

// throughput compares uploading cfg.uploads files with writing them to the
// data directory's file system directly.
func throughput(c *client, cfg config, jpg []byte, run string) error {
	var up, disk, commit []float64
	var use cpuUse
	for round := range throughputRounds {
		fmt.Fprintf(os.Stderr, "benchdriver: round %d: %d uploads and disk writes of %s\n", round+1, cfg.uploads, mb(int64(len(jpg))))
		d, err := diskThroughput(cfg.dataDir, jpg, cfg.uploads, cfg.workers, false)
		if err != nil {
			return fmt.Errorf("disk write test: %w", err)
		}
		before := readCPU(cfg.pid)
		u, err := c.uploadThroughput(jpg, cfg.uploads, cfg.workers, fmt.Sprintf("%s-%d", run, round))
		if err != nil {
			return err
		}
		use = use.add(readCPU(cfg.pid).since(before))
		dc, err := diskThroughput(cfg.dataDir, jpg, cfg.uploads, cfg.workers, true)
		if err != nil {
			return fmt.Errorf("disk write test: %w", err)
		}
		up, disk, commit = append(up, u), append(disk, d), append(commit, dc)
	}
	all := func(v []float64) string {
		s := make([]string, len(v))
		for i, x := range v {
			s[i] = fmt.Sprintf("%.0f", x)
		}
		return strings.Join(s, ", ")
	}
	size := mb(int64(len(jpg)))
	fmt.Printf("upload: %d × %s JPEG, %d in parallel: %.0f MB/s (median of %s)\n",
		cfg.uploads, size, cfg.workers, median(up), all(up))
	fmt.Printf("disk:   %d × %s written and fsynced, %d in parallel, same file system: %.0f MB/s (median of %s)\n",
		cfg.uploads, size, cfg.workers, median(disk), all(disk))
	fmt.Printf("disk:   the same, each then renamed and its directory fsynced (a blob commit): %.0f MB/s (median of %s)\n",
		median(commit), all(commit))
	verdict := "ok"
	if median(up) < 0.8*median(disk) {
		verdict = "MISSED"
	}
	fmt.Printf("upload / disk: %.0f%% (target ≥ 80%%) %s; upload / disk with commit: %.0f%%\n",
		100*median(up)/median(disk), verdict, 100*median(up)/median(commit))
	uploaded := float64(len(jpg)) * float64(cfg.uploads*throughputRounds) / 1e6
	fmt.Printf("upload CPU: the machine's %d cores %.0f%% busy; per MB uploaded the server spent %.2f CPU-ms, this driver %.2f\n",
		runtime.NumCPU(), 100*use.busyShare/throughputRounds, 1e3*use.server/uploaded, 1e3*use.driver/uploaded)
	fmt.Printf("upload CPU: SHA-256 plus SHA-1, which the server must compute, cost %.2f CPU-ms per MB here\n", hashCost(jpg))
	return nil
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

// printTable prints rows as a Markdown table, aligned for the terminal
// too: the first column left, the others right.
func printTable(rows [][]string) {
	widths := make([]int, len(rows[0]))
	for _, row := range rows {
		for i, cell := range row {
			widths[i] = max(widths[i], utf8.RuneCountInString(cell))
		}
	}
	line := func(cells []string) {
		var b strings.Builder
		for i, cell := range cells {
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(cell))
			if i == 0 {
				cell += pad
			} else {
				cell = pad + cell
			}
			b.WriteString("| " + cell + " ")
		}
		fmt.Println(b.String() + "|")
	}
	line(rows[0])
	rule := make([]string, len(widths))
	for i, w := range widths {
		rule[i] = strings.Repeat("-", w-1) + ":"
	}
	rule[0] = strings.Repeat("-", widths[0])
	line(rule)
	for _, row := range rows[1:] {
		line(row)
	}
}
