package polyindex

import (
	"errors"
	"fmt"
)

// Shape is one area: the even-odd union of its rings (outer rings and holes
// alike, in any orientation), with the strings Index.Attrs returns for it.
// A ring may repeat its first vertex at its end.
type Shape struct {
	Rings [][]Point
	Attrs []string
}

// Options tune the quadtree: a node whose chains (the edges it keeps) have
// more than LeafVertices vertices, or that more than 64 shapes reach into,
// is split into quadrants, at most MaxDepth times below a 1° cell (the
// package's MaxDepth at most).
type Options struct {
	LeafVertices int
	MaxDepth     int
}

// DefaultOptions keep a leaf to at most 128 vertices, so that a lookup
// reads about a hundred edges (a microsecond) and the index of the Natural
// Earth data stays near 10 MB (6 MB gzipped); smaller leaves cost more
// bytes at every border they add, larger ones time.
var DefaultOptions = Options{LeafVertices: 128, MaxDepth: 12}

// piece is a shape's ring clipped to one grid cell; a nil ring stands for
// one that covers the whole cell.
type piece struct {
	shape int32
	ring  []Point
}

// entry is what a quadtree node knows of one shape: whether the node is
// inside the shape apart from the rings kept (inside), and those rings.
type entry struct {
	shape  int32
	inside bool
	rings  [][]Point
}

// Stats describe a built index.
type Stats struct {
	Inner, Leaves int // quadtree nodes
	Chains        int // runs of edges kept in the leaves
	Vertices      int // their vertices
}

// Build returns the index of shapes. Every shape in it has as many
// attributes as the first one; Contains answers shapes by their position in
// shapes. The same shapes and options always give the same bytes.
func Build(shapes []Shape, opt Options) ([]byte, Stats, error) {
	data, stats, err := build(shapes, opt)
	if err != nil {
		return nil, Stats{}, fmt.Errorf("build index: %w", err)
	}
	return data, stats, nil
}

func build(shapes []Shape, opt Options) ([]byte, Stats, error) {
	if opt.MaxDepth < 0 || opt.MaxDepth > MaxDepth || opt.LeafVertices < 1 {
		return nil, Stats{}, fmt.Errorf("options %+v out of range", opt)
	}
	if len(shapes) == 0 {
		return nil, Stats{}, errors.New("no shapes")
	}
	cells := make([][]piece, cols*rows)
	world := window{originX, originY, originX + cols*cellUnits, originY + rows*cellUnits}
	for i, s := range shapes {
		if len(s.Attrs) != len(shapes[0].Attrs) {
			return nil, Stats{}, fmt.Errorf("shape %d has %d attributes, shape 0 has %d", i, len(s.Attrs), len(shapes[0].Attrs))
		}
		for _, r := range s.Rings {
			for _, p := range r {
				if p.X%2 != 0 || p.Y%2 != 0 {
					return nil, Stats{}, fmt.Errorf("shape %d has the odd vertex %+v", i, p)
				}
			}
			ring := clip(normalize(r), world)
			if ring == nil {
				continue
			}
			lo, hi := bounds(ring)
			err := distribute(cells, int32(i), ring,
				cellOf(lo.X, originX, cols), cellOf(hi.X, originX, cols),
				cellOf(lo.Y, originY, rows), cellOf(hi.Y, originY, rows))
			if err != nil {
				return nil, Stats{}, fmt.Errorf("shape %d: %w", i, err)
			}
		}
	}
	e := newEncoder(shapes)
	for c := range cols {
		for r := range rows {
			entries := gather(cells[r*cols+c])
			if len(entries) == 0 {
				continue
			}
			off, err := e.node(cellWindow(c, r), entries, 0, opt)
			if err != nil {
				return nil, Stats{}, fmt.Errorf("cell %d,%d: %w", c, r, err)
			}
			e.grid[r*cols+c] = off
		}
	}
	return e.bytes(), e.stats, nil
}

// normalize drops repeated vertices, the closing one included.
func normalize(ring []Point) []Point {
	out := make([]Point, 0, len(ring))
	for _, p := range ring {
		out = appendPoint(out, p)
	}
	for len(out) > 1 && out[0] == out[len(out)-1] {
		out = out[:len(out)-1]
	}
	return out
}

func bounds(ring []Point) (lo, hi Point) {
	lo, hi = ring[0], ring[0]
	for _, p := range ring[1:] {
		lo.X, lo.Y = min(lo.X, p.X), min(lo.Y, p.Y)
		hi.X, hi.Y = max(hi.X, p.X), max(hi.Y, p.Y)
	}
	return lo, hi
}

// distribute clips ring, which lies within columns c0..c1 and rows r0..r1,
// to each of those cells by halving the range, and files the pieces.
func distribute(cells [][]piece, shape int32, ring []Point, c0, c1, r0, r1 int) error {
	if c0 == c1 && r0 == r1 {
		w := cellWindow(c0, r0)
		kind, err := classify(ring, w)
		switch {
		case err != nil:
			return err
		case kind == ringAll:
			cells[r0*cols+c0] = append(cells[r0*cols+c0], piece{shape, nil})
		case kind == ringPartial:
			cells[r0*cols+c0] = append(cells[r0*cols+c0], piece{shape, ring})
		}
		return nil
	}
	if c1-c0 >= r1-r0 {
		mid := (c0 + c1 + 1) / 2
		line := originX + int32(mid)*cellUnits
		if west := clipLine(ring, line, true, true); west != nil {
			if err := distribute(cells, shape, west, c0, mid-1, r0, r1); err != nil {
				return err
			}
		}
		if east := clipLine(ring, line, true, false); east != nil {
			return distribute(cells, shape, east, mid, c1, r0, r1)
		}
		return nil
	}
	mid := (r0 + r1 + 1) / 2
	line := originY + int32(mid)*cellUnits
	if south := clipLine(ring, line, false, true); south != nil {
		if err := distribute(cells, shape, south, c0, c1, r0, mid-1); err != nil {
			return err
		}
	}
	if north := clipLine(ring, line, false, false); north != nil {
		return distribute(cells, shape, north, c0, c1, mid, r1)
	}
	return nil
}

// gather turns a cell's pieces, filed shape by shape in order, into
// entries: rings that cover the whole cell only flip whether it is inside.
func gather(pieces []piece) []entry {
	var entries []entry
	for _, p := range pieces {
		if n := len(entries); n == 0 || entries[n-1].shape != p.shape {
			entries = append(entries, entry{shape: p.shape})
		}
		e := &entries[len(entries)-1]
		if p.ring == nil {
			e.inside = !e.inside
		} else {
			e.rings = append(e.rings, p.ring)
		}
	}
	return keep(entries)
}

// keep drops the entries that say nothing: outside, with no rings.
func keep(entries []entry) []entry {
	out := entries[:0]
	for _, e := range entries {
		if e.inside || len(e.rings) > 0 {
			out = append(out, e)
		}
	}
	return out
}

// split returns the entries of quadrant w of a node.
func split(entries []entry, w window) ([]entry, error) {
	var out []entry
	for _, e := range entries {
		q := entry{shape: e.shape, inside: e.inside}
		for _, r := range e.rings {
			c := clip(r, w)
			kind, err := classify(c, w)
			switch {
			case err != nil:
				return nil, err
			case kind == ringAll:
				q.inside = !q.inside
			case kind == ringPartial:
				q.rings = append(q.rings, c)
			}
		}
		out = append(out, q)
	}
	return keep(out), nil
}
