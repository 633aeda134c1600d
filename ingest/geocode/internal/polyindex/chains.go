package polyindex

import (
	"cmp"
	"slices"
)

// A leaf keeps edges, not rings: whether a ray crosses a shape's boundary an
// odd number of times depends only on which edges the boundary has, counted
// modulo two, not on their order or direction. So an edge that several
// shapes share (a border between two regions, a coast that a region and
// its country both follow) is kept once, with the set of shapes it bounds,
// and edges a ray from inside the leaf due east can never cross (those along
// the leaf's west, south and north borders) are not kept at all.

// chain is a run of edges that bound the same shapes: bit i of mask is the
// leaf's i-th shape. A closed chain's last vertex joins its first.
type chain struct {
	mask   uint64
	points []Point
	closed bool
}

type edgeKey struct{ a, b Point } // a < b

func less(a, b Point) bool { return a.X < b.X || (a.X == b.X && a.Y < b.Y) }

// chains turns the entries' clipped rings into chains, in an order that
// depends only on the geometry.
func chains(entries []entry, w window) []chain {
	masks := map[edgeKey]uint64{}
	for i, e := range entries {
		for _, r := range e.rings {
			prev := r[len(r)-1]
			for _, cur := range r {
				a, b := prev, cur
				prev = cur
				if a == b || (a.X == b.X && a.X == w.x0) || (a.Y == b.Y && (a.Y == w.y0 || a.Y == w.y1)) {
					continue
				}
				if less(b, a) {
					a, b = b, a
				}
				masks[edgeKey{a, b}] ^= 1 << i
			}
		}
	}
	edges := make([]edgeKey, 0, len(masks))
	for k, m := range masks {
		if m != 0 {
			edges = append(edges, k)
		}
	}
	slices.SortFunc(edges, func(p, q edgeKey) int {
		return cmp.Or(cmp.Compare(masks[p], masks[q]), cmp.Compare(p.a.X, q.a.X), cmp.Compare(p.a.Y, q.a.Y),
			cmp.Compare(p.b.X, q.b.X), cmp.Compare(p.b.Y, q.b.Y))
	})
	var out []chain
	for start := 0; start < len(edges); {
		end := start
		for end < len(edges) && masks[edges[end]] == masks[edges[start]] {
			end++
		}
		out = append(out, walk(edges[start:end], masks[edges[start]])...)
		start = end
	}
	return out
}

// walk joins edges (sorted) into as few chains as it simply can: from every
// vertex where they do not just pass through, then around what is left,
// which are loops.
func walk(edges []edgeKey, mask uint64) []chain {
	at := map[Point][]int{}
	for i, e := range edges {
		at[e.a] = append(at[e.a], i)
		at[e.b] = append(at[e.b], i)
	}
	used := make([]bool, len(edges))
	follow := func(from Point) chain {
		c := chain{mask: mask, points: []Point{from}}
		for v := from; ; {
			next := -1
			for _, i := range at[v] {
				if !used[i] {
					next = i
					break
				}
			}
			if next < 0 {
				return c
			}
			used[next] = true
			if e := edges[next]; e.a == v {
				v = e.b
			} else {
				v = e.a
			}
			if v == from {
				c.closed = true
				return c
			}
			c.points = append(c.points, v)
			if len(at[v]) != 2 {
				return c
			}
		}
	}
	var out []chain
	var ends []Point
	for _, e := range edges {
		for _, v := range []Point{e.a, e.b} {
			if len(at[v]) != 2 {
				ends = append(ends, v)
			}
		}
	}
	for _, v := range ends {
		for slices.ContainsFunc(at[v], func(i int) bool { return !used[i] }) {
			out = append(out, follow(v))
		}
	}
	for i, e := range edges {
		if !used[i] {
			out = append(out, follow(e.a))
		}
	}
	return out
}
