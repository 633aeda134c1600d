package search_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/devseed"
	"github.com/photoctl/photoctl/server/servertest"
)

// benchAssets is the library size of the search benchmarks:
// $SEARCH_BENCH_ASSETS, default 1,000,000.
func benchAssets() int {
	if n, err := strconv.Atoi(os.Getenv("SEARCH_BENCH_ASSETS")); err == nil && n > 0 {
		return n
	}
	return 1_000_000
}

// benchDataDir returns a data directory holding a seeded library of
// benchAssets assets with 200 people, seeding it into
// .cache/search-bench-N at the repository root on first use (a million
// take about twenty minutes; delete the folder to reseed).
func benchDataDir(tb testing.TB) string {
	n := benchAssets()
	dir, err := filepath.Abs(filepath.Join("..", "..", ".cache", "search-bench-"+strconv.Itoa(n)))
	require.NoError(tb, err)
	started := time.Now()
	return servertest.SeededLibrary{Dir: dir, Email: benchEmail, Password: benchPassword,
		Seed: devseed.Options{Assets: n, Seed: 1, People: 200, Progress: func(done int) {
			if done%100000 == 0 {
				tb.Logf("seeded %d assets in %s", done, time.Since(started).Round(time.Second))
			}
		}}}.DataDir(tb)
}

const (
	benchEmail    = "bench@example.com"
	benchPassword = "photoctl-bench"
)

func TestSeedSearchBench(t *testing.T) {
	if os.Getenv("SEARCH_BENCH_SEED") == "" {
		t.Skip("set SEARCH_BENCH_SEED=1 to seed the search benchmark's library")
	}
	benchDataDir(t)
}

// BenchmarkSearchLatency measures GET /api/search through the real server
// over the seeded library (benchDataDir): one request at a time over one
// keep-alive connection, pages of 100, reporting p50/p95/p99 per scenario.
// Run it with a fixed count so the percentiles have samples:
//
//	go test -tags sqlite_fts5 -run '^$' -bench SearchLatency -benchtime 300x ./server/search
func BenchmarkSearchLatency(b *testing.B) {
	dir := benchDataDir(b)
	ctx := context.Background()
	cfg := app.Defaults(dir)
	cfg.Listen, cfg.RateLimit.Enabled, cfg.Workers.Concurrency, cfg.ML.Enabled = "127.0.0.1:0", false, 0, false
	srv, err := app.Start(ctx, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	require.NoError(b, err)
	b.Cleanup(func() { _ = srv.Shutdown(context.Background()) })
	c := &benchClient{t: b, base: "http://" + srv.Addr(), http: &http.Client{Timeout: time.Minute}}
	var tok api.TokenResponse
	c.do("POST", "/api/auth/login", "", api.LoginRequest{Email: benchEmail, Password: benchPassword}, &tok)
	var key api.APIKeyCreated
	c.do("POST", "/api/api-keys", tok.AccessToken, api.APIKeyCreateRequest{Name: "bench",
		Scope: &api.APIKeyScope{Actions: []string{"search", "person.read"}}}, &key)
	c.key = key.Secret
	var people api.Page[api.Person]
	c.do("GET", "/api/people?limit=200", c.key, nil, &people)
	require.NotEmpty(b, people.Data, "the seeded library has people")

	r := rand.New(rand.NewPCG(1, 2))
	words := []string{"paris", "tokyo", "kyoto", "new york", "beach", "sunset", "temple", "fujifilm", "canon",
		"dog", "birthday cake", "alice", "heic"}
	typos := []string{"pariss", "kyoot", "sunest", "fujiflim", "templ", "berlim"}
	month := func() (string, string) {
		from := time.Date(2017+r.IntN(9), time.Month(1+r.IntN(12)), 1, 0, 0, 0, 0, time.UTC)
		return from.Format("2006-01-02T15:04:05"), from.AddDate(0, 1, 0).Format("2006-01-02T15:04:05")
	}
	anyPerson := func() string { return people.Data[r.IntN(len(people.Data))].ID }
	scenarios := []struct {
		name   string
		target time.Duration
		next   func() url.Values
	}{
		{"text + month window", 100 * time.Millisecond, func() url.Values {
			after, before := month()
			return url.Values{"query": {words[r.IntN(len(words))]}, "local_datetime_after": {after}, "local_datetime_before": {before}}
		}},
		{"person filter", 50 * time.Millisecond, func() url.Values { return url.Values{"person_ids": {anyPerson()}} }},
		{"text, first page", 0, func() url.Values { return url.Values{"query": {words[r.IntN(len(words))]}} }},
		{"text + person", 0, func() url.Values {
			return url.Values{"query": {words[r.IntN(len(words))]}, "person_ids": {anyPerson()}}
		}},
		{"misspelt word + month window", 0, func() url.Values {
			after, before := month()
			return url.Values{"query": {typos[r.IntN(len(typos))]}, "local_datetime_after": {after}, "local_datetime_before": {before}}
		}},
	}
	for _, sc := range scenarios {
		b.Run(sc.name, func(b *testing.B) {
			for range 10 { // warm the caches
				c.search(sc.next())
			}
			var lat []time.Duration
			cpu := cpuTime()
			for b.Loop() {
				q := sc.next()
				start := time.Now()
				c.search(q)
				lat = append(lat, time.Since(start))
			}
			cpuMS := float64((cpuTime() - cpu).Microseconds()) / 1000 / float64(len(lat))
			slices.Sort(lat)
			pct := func(p float64) float64 {
				return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Microseconds()) / 1000
			}
			b.ReportMetric(pct(0.99), "p99-ms")
			b.ReportMetric(pct(0.50), "p50-ms")
			b.ReportMetric(cpuMS, "cpu-ms/op")
			target := "-"
			if sc.target > 0 {
				target = fmt.Sprintf("p99 < %d ms", sc.target.Milliseconds())
			}
			fmt.Printf("| %-30s | %4d | %7.2f | %7.2f | %7.2f | %7.2f | %7.2f | %-12s |\n", sc.name, len(lat), pct(0.5),
				pct(0.95), pct(0.99), float64(lat[len(lat)-1].Microseconds())/1000, cpuMS, target)
		})
	}
}

// benchClient sends the benchmark's requests.
type benchClient struct {
	t    testing.TB
	base string
	key  string
	http *http.Client
}

func (c *benchClient) do(method, path, token string, body, out any) {
	c.t.Helper()
	var rd io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		require.NoError(c.t, err)
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	require.NoError(c.t, err)
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := c.http.Do(req)
	require.NoError(c.t, err)
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	require.NoError(c.t, err)
	require.Less(c.t, resp.StatusCode, 300, "%s %s: %s", method, path, data)
	if out != nil {
		require.NoError(c.t, json.Unmarshal(data, out))
	}
}

func (c *benchClient) search(q url.Values) {
	q.Set("limit", "100")
	c.do("GET", "/api/search?"+q.Encode(), c.key, nil, nil)
}

// cpuTime is the CPU time (user + system) the process has used: the server
// and this client share it, so per request it is the cost of a search
// whatever else the machine runs, where wall time is not.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
