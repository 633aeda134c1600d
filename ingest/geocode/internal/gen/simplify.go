package main

import (
	"math"

	"github.com/photoctl/photoctl/ingest/geocode/internal/polyindex"
)

type point = polyindex.Point

// simplify drops the vertices of every ring of shapes[i] that lie within
// tol[i] units of the line their neighbours keep (Douglas–Peucker), and
// returns how many vertices are left. Borders that rings share are simplified alike on both
// sides: a vertex where rings meet or part (a junction) is always kept, and
// the stretches between junctions are simplified on their own, so that two
// neighbours keep the same vertices and no gap or overlap opens between
// them. A ring that would keep fewer than three vertices is kept whole.
func simplify(shapes []polyindex.Shape, tol []float64) int {
	junction := junctions(shapes)
	left := 0
	for i := range shapes {
		for j, r := range shapes[i].Rings {
			shapes[i].Rings[j] = simplifyRing(ring(r), junction, tol[i])
			left += len(shapes[i].Rings[j])
		}
	}
	return left
}

// ring returns r without repeated vertices, the closing one included.
func ring(r []point) []point {
	out := make([]point, 0, len(r))
	for _, p := range r {
		if len(out) == 0 || out[len(out)-1] != p {
			out = append(out, p)
		}
	}
	for len(out) > 1 && out[0] == out[len(out)-1] {
		out = out[:len(out)-1]
	}
	return out
}

// junctions returns the vertices whose neighbours differ from one ring (or
// one pass of a ring) to another: where a shared border starts or ends.
func junctions(shapes []polyindex.Shape) map[point]bool {
	type pair struct{ a, b point }
	seen := map[point]pair{}
	junction := map[point]bool{}
	for _, s := range shapes {
		for _, r := range s.Rings {
			r = ring(r)
			for i, v := range r {
				a, b := r[(i+len(r)-1)%len(r)], r[(i+1)%len(r)]
				if b.X < a.X || (b.X == a.X && b.Y < a.Y) {
					a, b = b, a
				}
				if p, ok := seen[v]; !ok {
					seen[v] = pair{a, b}
				} else if p != (pair{a, b}) {
					junction[v] = true
				}
			}
		}
	}
	return junction
}

// simplifyRing simplifies one ring (without its closing vertex).
func simplifyRing(r []point, junction map[point]bool, tol float64) []point {
	n := len(r)
	if n <= 4 {
		return r
	}
	keep := make([]bool, n)
	var locked []int
	for i, p := range r {
		if junction[p] {
			keep[i] = true
			locked = append(locked, i)
		}
	}
	// A ring with fewer than two junctions is cut at its least vertex and the
	// vertex farthest from that, which do not depend on where the ring
	// starts or which way it runs.
	if len(locked) == 0 {
		least := 0
		for i, p := range r {
			if p.X < r[least].X || (p.X == r[least].X && p.Y < r[least].Y) {
				least = i
			}
		}
		keep[least] = true
		locked = append(locked, least)
	}
	if len(locked) == 1 {
		far, best := -1, -1.0
		for i, p := range r {
			if d := dist2(p, r[locked[0]]); d > best {
				far, best = i, d
			}
		}
		keep[far] = true
		locked = append(locked, far)
		if far < locked[0] {
			locked[0], locked[1] = far, locked[0]
		}
	}
	for k, from := range locked {
		to := locked[(k+1)%len(locked)]
		if to <= from {
			to += n
		}
		douglasPeucker(r, from, to, tol*tol, keep)
	}
	out := make([]point, 0, n)
	for i, p := range r {
		if keep[i] {
			out = append(out, p)
		}
	}
	if len(out) < 3 {
		return r
	}
	return out
}

// douglasPeucker marks in keep the vertices of r[from..to] (indexes taken
// modulo len(r)) that the simplification keeps; from and to are kept
// already.
func douglasPeucker(r []point, from, to int, tol2 float64, keep []bool) {
	n := len(r)
	type span struct{ a, b int }
	stack := []span{{from, to}}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if s.b-s.a < 2 {
			continue
		}
		a, b := r[s.a%n], r[s.b%n]
		far, best := -1, -1.0
		for i := s.a + 1; i < s.b; i++ {
			if d := segmentDist2(r[i%n], a, b); d > best {
				far, best = i, d
			}
		}
		if best > tol2 {
			keep[far%n] = true
			stack = append(stack, span{s.a, far}, span{far, s.b})
		}
	}
}

func dist2(p, q point) float64 {
	dx, dy := float64(p.X-q.X), float64(p.Y-q.Y)
	return dx*dx + dy*dy
}

// segmentDist2 is the squared distance from p to the segment a–b.
func segmentDist2(p, a, b point) float64 {
	dx, dy := float64(b.X-a.X), float64(b.Y-a.Y)
	l2 := dx*dx + dy*dy
	if l2 == 0 {
		return dist2(p, a)
	}
	t := ((float64(p.X-a.X))*dx + (float64(p.Y-a.Y))*dy) / l2
	t = math.Max(0, math.Min(1, t))
	ex, ey := float64(a.X)+t*dx-float64(p.X), float64(a.Y)+t*dy-float64(p.Y)
	return ex*ex + ey*ey
}
