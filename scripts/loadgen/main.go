// Command loadgen drives a running photoctl server past its per-user rate
// limit and reports whether the limiter holds and what it costs others.
// scripts/load builds and runs it; see docs/reliability.md, "Load".
//
// One user (the flooder) sends list requests open-loop at -x times the
// configured rate for -duration; another user (the neighbour) pages its
// own timeline at a modest pace meanwhile, having first done the same
// alone for -baseline. It prints the flooder's admitted rate and 429s
// (each must carry Retry-After), the neighbour's latencies against the
// list-page target and beside its latencies alone, and the server's peak
// RSS (VmHWM of -pid). It exits 1 when a check fails.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

type options struct {
	base, flooder, neighbour, password string
	rate, burst, times                 float64
	duration, baseline                 time.Duration
	pid                                int
	targetP99, neighbourRate           float64
	maxRSSMiB                          int
}

func main() {
	var o options
	flag.StringVar(&o.base, "url", "http://127.0.0.1:2283", "server base `URL`")
	flag.StringVar(&o.flooder, "flooder", "flood@example.com", "e-mail of the user who floods")
	flag.StringVar(&o.neighbour, "neighbour", "calm@example.com", "e-mail of the user who must stay unaffected")
	flag.StringVar(&o.password, "password", "photoctl-load", "password of both users")
	flag.Float64Var(&o.rate, "rate", 50, "the server's rate_limit.rate (tokens per second)")
	flag.Float64Var(&o.burst, "burst", 200, "the server's rate_limit.burst")
	flag.Float64Var(&o.times, "x", 10, "flood at this multiple of -rate")
	flag.DurationVar(&o.duration, "duration", 20*time.Second, "how long to flood")
	flag.IntVar(&o.pid, "pid", 0, "server process id, for its peak RSS")
	flag.Float64Var(&o.targetP99, "target-p99-ms", 5, "list-page p99 target (docs/performance.md)")
	flag.Float64Var(&o.neighbourRate, "neighbour-rate", 20, "the neighbour's requests per second")
	flag.DurationVar(&o.baseline, "baseline", 20*time.Second, "run the neighbour alone this long first, for comparison (0: skip)")
	flag.IntVar(&o.maxRSSMiB, "max-rss-mib", 512, "fail when the server's peak RSS passes this")
	flag.Parse()
	if !run(o) {
		os.Exit(1)
	}
}

// client asks for uncompressed answers, as scripts/bench's driver does, so
// a page's latency here is the one docs/performance.md's target is about.
// It reads a connection 256 KiB at a time: a page of 100 is about 250 KB,
// which the default 4 KiB buffer reads in some sixty system calls, each
// inside the timed request.
var client = &http.Client{Timeout: 30 * time.Second,
	Transport: &http.Transport{MaxIdleConnsPerHost: 256, DisableCompression: true, ReadBufferSize: 256 << 10}}

func run(o options) bool {
	ftok, ntok := login(o.base, o.flooder, o.password), login(o.base, o.neighbour, o.password)
	var alone []float64
	if o.baseline > 0 {
		alone = baseline(o, ntok, o.baseline)
	}
	stop := make(chan struct{})
	var ok, limited, noRetryAfter, other atomic.Int64
	var wg sync.WaitGroup
	// The flooder: open loop, one request every 1/(x·rate) seconds, each
	// in its own goroutine (bounded) so that slow answers do not slow it.
	sem := make(chan struct{}, 256)
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(time.Duration(float64(time.Second) / (o.times * o.rate)))
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
			sem <- struct{}{}
			wg.Add(1)
			go func() {
				defer func() { <-sem; wg.Done() }()
				status, hdr, err := discard(o.base+"/api/assets?limit=100", ftok)
				switch {
				case err != nil:
					other.Add(1)
				case status == http.StatusOK:
					ok.Add(1)
				case status == http.StatusTooManyRequests:
					limited.Add(1)
					if n, err := strconv.Atoi(hdr.Get("Retry-After")); err != nil || n < 1 {
						noRetryAfter.Add(1)
					}
				default:
					other.Add(1)
				}
			}()
		}
	}()
	// The neighbour, meanwhile, at the same pace as in the baseline.
	var lat []float64
	var nErr int
	wg.Add(1)
	go func() {
		defer wg.Done()
		lat, nErr = neighbour(o, ntok, stop)
	}()
	time.Sleep(o.duration)
	close(stop)
	wg.Wait()
	return report(o, ok.Load(), limited.Load(), noRetryAfter.Load(), other.Load(), lat, nErr, alone)
}

// neighbour pages through its timeline, 100 at a time, at
// o.neighbourRate requests a second until stop closes, and returns each
// request's latency in ms and how many did not answer 200.
func neighbour(o options, token string, stop <-chan struct{}) (lat []float64, nErr int) {
	tick := time.NewTicker(time.Duration(float64(time.Second) / o.neighbourRate))
	defer tick.Stop()
	after := ""
	var buf bytes.Buffer // one answer at a time, reused
	for {
		select {
		case <-stop:
			return lat, nErr
		case <-tick.C:
		}
		start := time.Now()
		status, body, err := get(o.base+"/api/assets?limit=100&starting_after_id="+after, token, &buf)
		lat = append(lat, float64(time.Since(start).Microseconds())/1000)
		if err != nil || status != http.StatusOK {
			nErr++
			continue
		}
		var page struct {
			Data    []struct{ ID string }
			HasMore bool `json:"has_more"`
		}
		if json.Unmarshal(body, &page) == nil && page.HasMore && len(page.Data) > 0 {
			after = page.Data[len(page.Data)-1].ID
		} else {
			after = ""
		}
	}
}

// baseline runs the neighbour alone for d (no flood), for the latency its
// requests have at this pace on this machine without the flood.
func baseline(o options, token string, d time.Duration) []float64 {
	stop := make(chan struct{})
	time.AfterFunc(d, func() { close(stop) })
	lat, _ := neighbour(o, token, stop)
	return lat
}

func report(o options, ok, limited, noRetryAfter, other int64, lat []float64, nErr int, alone []float64) bool {
	secs := o.duration.Seconds()
	allowed := o.rate*secs + o.burst // what the bucket can admit at most
	slices.Sort(lat)
	slices.Sort(alone)
	pctOf := func(v []float64, p float64) float64 {
		if len(v) == 0 {
			return 0
		}
		return v[min(len(v)-1, int(p*float64(len(v))))]
	}
	pct := func(p float64) float64 { return pctOf(lat, p) }
	pass := true
	check := func(name string, good bool, format string, args ...any) {
		res := "ok"
		if !good {
			res, pass = "FAILED", false
		}
		fmt.Printf("| %-44s | %-46s | %-6s |\n", name, fmt.Sprintf(format, args...), res)
	}
	fmt.Printf("load: %.0f s, flooder at %.0f× rate (%.0f req/s offered), neighbour at %.0f req/s\n\n",
		secs, o.times, o.times*o.rate, o.neighbourRate)
	fmt.Printf("| %-44s | %-46s | %-6s |\n|%s|%s|%s|\n", "check", "figure", "result",
		strings.Repeat("-", 46), strings.Repeat("-", 48), strings.Repeat("-", 8))
	check("flooder admitted ≤ rate·t + burst", float64(ok) <= allowed*1.05,
		"%d admitted (≤ %.0f), %.1f/s", ok, allowed, float64(ok)/secs)
	check("flooder refused with 429", limited > 0, "%d × 429, %d other", limited, other)
	check("every 429 has Retry-After ≥ 1", noRetryAfter == 0, "%d without", noRetryAfter)
	check("neighbour never refused", nErr == 0, "%d requests, %d not 200", len(lat), nErr)
	check(fmt.Sprintf("neighbour list page p99 < %.0f ms", o.targetP99), pct(0.99) < o.targetP99,
		"p50 %.2f, p95 %.2f, p99 %.2f, max %.2f ms", pct(0.5), pct(0.95), pct(0.99), pct(1))
	if len(alone) > 0 {
		// Not a check: what the same requests take at the same pace with
		// no flood, so the flood's own effect can be read off.
		fmt.Printf("| %-44s | %-46s | %-6s |\n", "the same, neighbour alone (before the flood)",
			fmt.Sprintf("p50 %.2f, p95 %.2f, p99 %.2f, max %.2f ms", pctOf(alone, 0.5), pctOf(alone, 0.95),
				pctOf(alone, 0.99), pctOf(alone, 1)), "")
	}
	if o.pid > 0 {
		hwm, rss := procStatus(o.pid, "VmHWM:"), procStatus(o.pid, "VmRSS:")
		check(fmt.Sprintf("server peak RSS < %d MiB", o.maxRSSMiB), hwm > 0 && hwm/1024 < o.maxRSSMiB,
			"VmHWM %d MiB, VmRSS %d MiB", hwm/1024, rss/1024)
	}
	return pass
}

func login(base, email, password string) string {
	body, _ := json.Marshal(map[string]string{"email": email, "password": password})
	resp, err := client.Post(base+"/api/auth/login", "application/json", bytes.NewReader(body))
	if err != nil {
		fmt.Fprintln(os.Stderr, "login:", err)
		os.Exit(1)
	}
	defer resp.Body.Close()
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&tok) != nil {
		fmt.Fprintf(os.Stderr, "login %s: status %d\n", email, resp.StatusCode)
		os.Exit(1)
	}
	return tok.AccessToken
}

// get sends GET url and reads the answer into buf, grown once to the
// answer's length rather than doubling its way there as io.ReadAll does;
// the bytes returned are buf's, valid until its next use.
func get(url, token string, buf *bytes.Buffer) (int, []byte, error) {
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	buf.Reset()
	if resp.ContentLength > 0 {
		buf.Grow(int(resp.ContentLength))
	}
	_, err = buf.ReadFrom(resp.Body)
	return resp.StatusCode, buf.Bytes(), err
}

// discard sends GET url and reads the answer to the end without keeping
// it: the flooder's pages would otherwise be garbage for this process to
// collect on the cores it shares with the server, inside the neighbour's
// timed requests.
func discard(url, token string) (int, http.Header, error) {
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	_, err = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, resp.Header, err
}

// procStatus reads a "kB" field of /proc/PID/status.
func procStatus(pid int, field string) int {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, field); ok {
			n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			return n
		}
	}
	return 0
}
