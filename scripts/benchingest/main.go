// Command benchingest measures photoctl's ingest against the tools it is
// built on, as scripts/bench-ingest sets it up:
//
//	benchingest gen -n 50 -dir DIR      # N distinct 12 MP camera-like JPEGs with EXIF
//	benchingest run -url URL -dir DIR   # time both and print the comparison
//
// run times, over the same files, (a) photoctl's full ingest through the
// real upload path — POST /api/assets, then the task chain metadata →
// variants → geocode and metrics until no task is queued or running — and
// (b) the yardstick: `vipsthumbnail` writing the same two sizes (1440 and
// 250 px WebP, the quality and effort photoctl uses) and `exiftool -j`,
// with as many shards in parallel as the server runs tasks. It prints
// both throughputs and their ratio, the CPU time each spent per file (a
// figure the load of a shared machine disturbs less than wall time), and
// the server's peak RSS during the ingest. Standard library only.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "gen":
		err = genCommand(os.Args[2:])
	case "run":
		err = runCommand(os.Args[2:])
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchingest:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: benchingest gen -n N -dir DIR | benchingest run -url URL -dir DIR [-pid PID]")
	os.Exit(2)
}

func genCommand(args []string) error {
	fs := flag.NewFlagSet("gen", flag.ExitOnError)
	n := fs.Int("n", 50, "number of photos")
	dir := fs.String("dir", "", "output `DIR` (required)")
	width := fs.Int("width", 4000, "photo width in pixels")
	height := fs.Int("height", 3000, "photo height in pixels")
	_ = fs.Parse(args)
	if *dir == "" || *n < 1 {
		return fmt.Errorf("gen: -dir and a positive -n are required")
	}
	return generate(*dir, *n, *width, *height)
}

// runConfig is what run needs.
type runConfig struct {
	url, key, dir  string
	pid, uploaders int
	shards         int
	quality        int
	effort         int
}

func runCommand(args []string) error {
	var c runConfig
	fs := flag.NewFlagSet("run", flag.ExitOnError)
	fs.StringVar(&c.url, "url", "http://127.0.0.1:2283", "server base `URL`")
	fs.StringVar(&c.key, "key", os.Getenv("BENCH_API_KEY"), "API key with asset.upload, asset.read and task.read (default $BENCH_API_KEY)")
	fs.StringVar(&c.dir, "dir", "", "the photos made by gen (required)")
	fs.IntVar(&c.pid, "pid", 0, "`PID` of the server, for its RSS and CPU time from /proc")
	fs.IntVar(&c.uploaders, "uploaders", 2, "parallel uploads")
	fs.IntVar(&c.shards, "shards", runtime.NumCPU(), "parallel shards of the yardstick (the server's task concurrency)")
	fs.IntVar(&c.quality, "quality", 82, "WebP quality of the yardstick (photoctl's variant quality)")
	fs.IntVar(&c.effort, "effort", 2, "WebP effort of the yardstick (photoctl's)")
	_ = fs.Parse(args)
	if c.key == "" || c.dir == "" {
		return fmt.Errorf("run: -key (or $BENCH_API_KEY) and -dir are required")
	}
	return run(c)
}
