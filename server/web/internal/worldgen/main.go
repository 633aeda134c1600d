// Command worldgen writes the gallery map's world outline (server/web's
// static/world.json): Natural Earth's 1:10m admin-0 countries, the ones
// ingest/geocode compiles into its place index, read from the same source
// (github.com/sams96/rgeo's Provinces10, from the Go module proxy),
// simplified with Douglas–Peucker and projected equirectangularly onto a
// grid of 1/scale of a degree. `go generate ./server/web` runs it; the same
// data always writes the same bytes.
//
// The outline is one SVG path over a viewBox of 360·scale × 180·scale
// (x = longitude + 180, y = 90 − latitude, in grid units): absolute moves
// and relative lines, so the file stays small and the page draws it with a
// single <path>.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"log"
	"math"
	"os"
	"strconv"

	"github.com/sams96/rgeo"

	"github.com/photoctl/photoctl/ingest/geocode/geojson"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("worldgen: ")
	out := flag.String("o", "static/world.json", "write the outline to this file")
	scale := flag.Int("scale", 10, "grid units per degree")
	tol := flag.Float64("tolerance", 0.08, "simplify within this many degrees")
	minSize := flag.Float64("min", 0.25, "drop rings whose bounding box is smaller than this many degrees both ways")
	flag.Parse()
	rings, err := countries(rgeo.Provinces10())
	if err != nil {
		log.Fatal(err)
	}
	data, kept := outline(rings, *scale, *tol, *minSize)
	if err := os.WriteFile(*out, data, 0o644); err != nil {
		log.Fatal(err)
	}
	log.Printf("%d rings, %d vertices kept, %d bytes", len(rings), kept, len(data))
}

type point struct{ lon, lat float64 }

// countries reads the rings of the admin-0 countries of a gzipped GeoJSON
// feature collection, in the file's order.
func countries(gz []byte) ([][]point, error) {
	features, err := geojson.Read(gz)
	if err != nil {
		return nil, err
	}
	var rings [][]point
	for _, f := range features {
		if f.Properties["featurecla"] != "Admin-0 country" {
			continue
		}
		for _, r := range f.Rings {
			ring := make([]point, len(r))
			for j, c := range r {
				ring[j] = point{c[0], c[1]}
			}
			rings = append(rings, ring)
		}
	}
	if len(rings) == 0 {
		return nil, fmt.Errorf("no admin-0 countries in the data")
	}
	return rings, nil
}

// outline simplifies and projects the rings into the JSON file's bytes and
// returns how many vertices it kept.
func outline(rings [][]point, scale int, tol, minSize float64) ([]byte, int) {
	var d bytes.Buffer
	kept := 0
	s := float64(scale)
	for _, r := range rings {
		lo, hi := bounds(r)
		if hi.lon-lo.lon < minSize && hi.lat-lo.lat < minSize {
			continue
		}
		r = simplify(r, tol)
		var pts [][2]int
		for _, p := range r {
			q := [2]int{int(math.Round((p.lon + 180) * s)), int(math.Round((90 - p.lat) * s))}
			if len(pts) == 0 || pts[len(pts)-1] != q {
				pts = append(pts, q)
			}
		}
		for len(pts) > 1 && pts[0] == pts[len(pts)-1] {
			pts = pts[:len(pts)-1]
		}
		if len(pts) < 3 {
			continue
		}
		kept += len(pts)
		d.WriteString("M" + strconv.Itoa(pts[0][0]) + " " + strconv.Itoa(pts[0][1]) + "l")
		for i := 1; i < len(pts); i++ {
			dx, dy := pts[i][0]-pts[i-1][0], pts[i][1]-pts[i-1][1]
			if i > 1 && dx >= 0 {
				d.WriteByte(' ')
			}
			d.WriteString(strconv.Itoa(dx))
			if dy >= 0 {
				d.WriteByte(' ')
			}
			d.WriteString(strconv.Itoa(dy))
		}
		d.WriteByte('z')
	}
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "{\"source\":\"Natural Earth 1:10m admin-0 countries (github.com/sams96/rgeo Provinces10), simplified; go generate ./server/web\",\n")
	fmt.Fprintf(&buf, "\"scale\":%d,\"width\":%d,\"height\":%d,\n\"d\":%q}\n", scale, 360*scale, 180*scale, d.String())
	return buf.Bytes(), kept
}

func bounds(r []point) (lo, hi point) {
	lo, hi = r[0], r[0]
	for _, p := range r {
		lo = point{math.Min(lo.lon, p.lon), math.Min(lo.lat, p.lat)}
		hi = point{math.Max(hi.lon, p.lon), math.Max(hi.lat, p.lat)}
	}
	return lo, hi
}

// simplify is Douglas–Peucker on a closed ring: the first vertex and the
// one farthest from it are kept, and each half is simplified on its own.
func simplify(r []point, tol float64) []point {
	if len(r) > 1 && r[0] == r[len(r)-1] {
		r = r[:len(r)-1]
	}
	if len(r) <= 4 {
		return r
	}
	far := 0
	for i, p := range r {
		if dist2(p, r[0]) > dist2(r[far], r[0]) {
			far = i
		}
	}
	keep := make([]bool, len(r))
	keep[0], keep[far] = true, true
	closed := append(append([]point(nil), r...), r[0])
	dp(closed, 0, far, tol, keep)
	dp(closed, far, len(r), tol, keep)
	var out []point
	for i, p := range r {
		if keep[i] {
			out = append(out, p)
		}
	}
	return out
}

// dp keeps the vertices between a and b that lie farther than tol from the
// segment a–b, recursively (the end b may be the ring's closing vertex).
func dp(r []point, a, b int, tol float64, keep []bool) {
	if b-a < 2 {
		return
	}
	best, at := -1.0, -1
	for i := a + 1; i < b; i++ {
		if d := segmentDist(r[i], r[a], r[b]); d > best {
			best, at = d, i
		}
	}
	if best <= tol {
		return
	}
	keep[at] = true
	dp(r, a, at, tol, keep)
	dp(r, at, b, tol, keep)
}

func dist2(p, q point) float64 { return (p.lon-q.lon)*(p.lon-q.lon) + (p.lat-q.lat)*(p.lat-q.lat) }

// segmentDist is the distance in degrees from p to the segment a–b.
func segmentDist(p, a, b point) float64 {
	dx, dy := b.lon-a.lon, b.lat-a.lat
	l2 := dx*dx + dy*dy
	if l2 == 0 {
		return math.Sqrt(dist2(p, a))
	}
	t := math.Max(0, math.Min(1, ((p.lon-a.lon)*dx+(p.lat-a.lat)*dy)/l2))
	return math.Sqrt(dist2(p, point{a.lon + t*dx, a.lat + t*dy}))
}
