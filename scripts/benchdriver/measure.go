package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"
)

// errNotAvailable marks a scenario whose route the server does not have
// (yet): its OpenAPI document does not list it, or it answered 404.
var errNotAvailable = errors.New("not available")

// routes returns the paths of the server's OpenAPI document. A route such
// as /api/assets/counts cannot be probed directly: before it exists,
// /api/assets/{id} answers for it.
func (c *client) routes() (map[string]bool, error) {
	status, body, err := c.get("/api/openapi.json")
	if err != nil {
		return nil, err
	}
	if status != http.StatusOK {
		return nil, fmt.Errorf("GET /api/openapi.json: %d", status)
	}
	var doc struct {
		Paths map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, fmt.Errorf("decode the OpenAPI document: %w", err)
	}
	out := make(map[string]bool, len(doc.Paths))
	for p := range doc.Paths {
		out[p] = true
	}
	return out, nil
}

// client sends the driver's requests over keep-alive connections with the
// API key.
type client struct {
	base string
	key  string
	http *http.Client
	// body receives each answer of get, reused: a fresh buffer per answer
	// (io.ReadAll) made the driver collect its garbage every few requests,
	// on the two cores it shares with the server, inside the timed span.
	// The transport reads 256 KiB at a time for the same reason: a page of
	// 100 is about 250 KB, some sixty reads of the default 4 KiB.
	body bytes.Buffer
}

func newClient(base, key string, conns int) *client {
	return &client{base: base, key: key, http: &http.Client{
		Timeout: 10 * time.Minute,
		Transport: &http.Transport{
			MaxIdleConnsPerHost: conns,
			DisableCompression:  true,
			ReadBufferSize:      256 << 10,
		},
	}}
}

// get sends GET path and returns the status and body. The body is valid
// until the next call; get is not safe for concurrent use.
func (c *client) get(path string) (int, []byte, error) {
	req, err := http.NewRequest("GET", c.base+path, nil)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.key)
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	c.body.Reset()
	_, err = c.body.ReadFrom(resp.Body)
	return resp.StatusCode, c.body.Bytes(), err
}

// stats are the latencies of one scenario.
type stats struct {
	name   string
	target time.Duration // p99 target, 0 for none
	lat    []time.Duration
	wall   time.Duration // total time of the timed requests
	bytes  int64         // response bytes of the timed requests
	err    error         // why the scenario did not run
}

func (s *stats) pct(p float64) time.Duration {
	if len(s.lat) == 0 {
		return 0
	}
	sorted := slices.Clone(s.lat)
	slices.Sort(sorted)
	i := int(p/100*float64(len(sorted))+0.5) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

// run times n requests made by next (after warm untimed ones), one at a
// time. A 404 on the first request marks the scenario not available; any
// other non-200 fails it.
func (c *client) run(name string, target time.Duration, warm, n int, next func(i int) string) *stats {
	s := &stats{name: name, target: target}
	for i := range warm + n {
		path := next(i)
		start := time.Now()
		status, body, err := c.get(path)
		d := time.Since(start)
		switch {
		case err != nil:
			s.err = err
			return s
		case status == http.StatusNotFound && i == 0:
			s.err = errNotAvailable
			return s
		case status != http.StatusOK:
			s.err = fmt.Errorf("GET %s: %d %.200s", path, status, body)
			return s
		}
		if i >= warm {
			s.lat = append(s.lat, d)
			s.wall += d
			s.bytes += int64(len(body))
		}
	}
	return s
}

// ms formats a duration in milliseconds.
func ms(d time.Duration) string { return fmt.Sprintf("%.2f", float64(d)/float64(time.Millisecond)) }

// latencyRow is a table line for s.
func latencyRow(s *stats) []string {
	if s.err != nil {
		return []string{s.name, "-", "-", "-", "-", "-", "-", "-", target(s.target), s.err.Error()}
	}
	verdict := ""
	if s.target > 0 {
		verdict = "ok"
		if s.pct(99) >= s.target {
			verdict = "MISSED"
		}
	}
	return []string{s.name, fmt.Sprint(len(s.lat)), ms(s.pct(50)), ms(s.pct(95)), ms(s.pct(99)), ms(s.pct(100)),
		fmt.Sprintf("%.0f", float64(len(s.lat))/s.wall.Seconds()), fmt.Sprint(s.bytes / int64(len(s.lat)) >> 10),
		target(s.target), verdict}
}

func target(d time.Duration) string {
	if d == 0 {
		return ""
	}
	return "p99 < " + ms(d)
}
