package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"
	"strconv"
	"time"
)

// sample is what the first walk keeps: random cursors, random points where
// photos are, and the span of capture times.
type sample struct {
	assets   int
	cursors  []string
	points   [][2]float64 // lon, lat
	earliest time.Time
	latest   time.Time
}

// listPage is the part of GET /api/assets the driver reads.
type listPage struct {
	Data []struct {
		ID            string `json:"id"`
		LocalDatetime string `json:"local_datetime"`
		Metadata      struct {
			Latitude  *float64 `json:"latitude"`
			Longitude *float64 `json:"longitude"`
		} `json:"metadata"`
	} `json:"data"`
	HasMore bool `json:"has_more"`
}

// reservoir keeps a uniform random sample of up to size items.
func reservoir[T any](r *rand.Rand, kept []T, seen, size int, v T) []T {
	if len(kept) < size {
		return append(kept, v)
	}
	if j := r.IntN(seen); j < size {
		kept[j] = v
	}
	return kept
}

// walk pages through the whole library with pages of 200 (at most maxPages
// when positive), timing each page, and samples cursors and points.
func (c *client) walk(r *rand.Rand, maxPages int) (*stats, *sample, error) {
	s := &stats{name: "walk: pages of 200, in order"}
	sm := &sample{}
	after := ""
	located := 0
	for page := 0; maxPages <= 0 || page < maxPages; page++ {
		path := "/api/assets?limit=200"
		if after != "" {
			path += "&starting_after_id=" + after
		}
		start := time.Now()
		status, body, err := c.get(path)
		d := time.Since(start)
		if err != nil {
			return nil, nil, err
		}
		if status != 200 {
			return nil, nil, fmt.Errorf("GET %s: %d %.200s", path, status, body)
		}
		s.lat, s.wall, s.bytes = append(s.lat, d), s.wall+d, s.bytes+int64(len(body))
		var p listPage
		if err := json.Unmarshal(body, &p); err != nil {
			return nil, nil, fmt.Errorf("decode page: %w", err)
		}
		for _, a := range p.Data {
			sm.assets++
			sm.cursors = reservoir(r, sm.cursors, sm.assets, 2000, a.ID)
			if m := a.Metadata; m.Latitude != nil && m.Longitude != nil {
				located++
				sm.points = reservoir(r, sm.points, located, 2000, [2]float64{*m.Longitude, *m.Latitude})
			}
			if len(a.LocalDatetime) >= 19 {
				if t, err := time.Parse("2006-01-02T15:04:05", a.LocalDatetime[:19]); err == nil {
					if sm.earliest.IsZero() || t.Before(sm.earliest) {
						sm.earliest = t
					}
					if t.After(sm.latest) {
						sm.latest = t
					}
				}
			}
			after = a.ID
		}
		if !p.HasMore {
			break
		}
	}
	if len(sm.cursors) == 0 || len(sm.points) == 0 {
		return nil, nil, fmt.Errorf("the library has %d assets, %d with coordinates: seed it first", sm.assets, located)
	}
	return s, sm, nil
}

// listPath is a page of 100 after a random cursor.
func listPath(r *rand.Rand, sm *sample) string {
	return "/api/assets?limit=100&starting_after_id=" + sm.cursors[r.IntN(len(sm.cursors))]
}

// bigBoxes are viewports over whole regions, one crossing the antimeridian.
var bigBoxes = []string{
	"-10,35,30,60",      // western Europe
	"-125,25,-66,50",    // the contiguous United States
	"100,20,146,46",     // East Asia
	"170,-25,-170,-10",  // Fiji, Tonga and Samoa, across the antimeridian
	"-180,-90,180,90",   // the world
	"-180,-60,180,75",   // the inhabited world
	"110,-45,180,-10",   // Australia and New Zealand
	"-90,-56,-30,15",    // South America
	"-20,-35,52,38",     // Africa
	"-180,-90,-179,-89", // nothing
}

// bigBoxPath is a page of 100 in a random big box.
func bigBoxPath(r *rand.Rand) string {
	return "/api/assets?limit=100&bbox=" + bigBoxes[r.IntN(len(bigBoxes))]
}

// bboxPath is a page of 100 in a box of about 1°×1° around a random photo,
// crossing the antimeridian where the photo is beside it.
func bboxPath(r *rand.Rand, sm *sample) string {
	p := sm.points[r.IntN(len(sm.points))]
	wrap := func(lon float64) float64 {
		switch {
		case lon > 180:
			return lon - 360
		case lon < -180:
			return lon + 360
		}
		return lon
	}
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', 4, 64) }
	minLat, maxLat := max(-90, p[1]-0.5), min(90, p[1]+0.5)
	return fmt.Sprintf("/api/assets?limit=100&bbox=%s,%s,%s,%s", f(wrap(p[0]-0.5)), f(minLat), f(wrap(p[0]+0.5)), f(maxLat))
}

// windowOffsets are the offsets of offset-aware windows.
var windowOffsets = []string{"Z", "+01:00", "+02:00", "-05:00", "+09:00", "+05:30", "-08:00", "+12:00"}

// windowPath is a page of 100 in a random calendar month of the library's
// span, offsetless (wall clock) or, when aware, with an offset.
func windowPath(r *rand.Rand, sm *sample, aware bool) string {
	span := sm.latest.Sub(sm.earliest)
	t := sm.earliest.Add(time.Duration(r.Int64N(int64(max(span, time.Hour)))))
	from := time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
	to := from.AddDate(0, 1, 0)
	const layout = "2006-01-02T15:04:05"
	after, before := from.Format(layout), to.Format(layout)
	if aware {
		off := windowOffsets[r.IntN(len(windowOffsets))]
		after, before = after+off, before+off
	}
	q := url.Values{"limit": {"100"}, "local_datetime_after": {after}, "local_datetime_before": {before}}
	return "/api/assets?" + q.Encode()
}
