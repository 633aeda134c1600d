package polyindex

import "fmt"

// window is a rectangle of the index with odd borders: x0 < x < x1 and
// y0 < y < y1 for every vertex and query inside it.
type window struct{ x0, y0, x1, y1 int32 }

// cellWindow returns the window of the grid cell in column c and row r.
func cellWindow(c, r int) window {
	x0 := originX + int32(c)*cellUnits
	y0 := originY + int32(r)*cellUnits
	return window{x0, y0, x0 + cellUnits, y0 + cellUnits}
}

// quadrant returns quarter q of w: bit 0 set is the east half, bit 1 the
// north half. w is at least 4 units wide, so the middle lines are odd too.
func (w window) quadrant(q int) window {
	mx, my := w.x0+(w.x1-w.x0)/2, w.y0+(w.y1-w.y0)/2
	if q&1 == 0 {
		w.x1 = mx
	} else {
		w.x0 = mx
	}
	if q&2 == 0 {
		w.y1 = my
	} else {
		w.y0 = my
	}
	return w
}

// clip returns the part of a closed ring inside w, as a closed ring that
// runs along w's borders where the original leaves w (Sutherland–Hodgman).
// It winds around every point strictly inside w as often as ring does. nil
// means nothing of the ring is left.
func clip(ring []Point, w window) []Point {
	ring = clipLine(ring, w.x0, true, false)
	ring = clipLine(ring, w.x1, true, true)
	ring = clipLine(ring, w.y0, false, false)
	return clipLine(ring, w.y1, false, true)
}

// clipLine keeps the part of ring on one side of the line x = line (vertical)
// or y = line: the side below it when keepLow, above it otherwise. Points on
// the line are kept.
func clipLine(ring []Point, line int32, vertical, keepLow bool) []Point {
	if len(ring) < 3 {
		return nil
	}
	in := func(p Point) bool {
		v := p.Y
		if vertical {
			v = p.X
		}
		if keepLow {
			return v <= line
		}
		return v >= line
	}
	all := true
	for _, p := range ring {
		all = all && in(p)
	}
	if all {
		return ring
	}
	out := make([]Point, 0, len(ring)+4)
	prev := ring[len(ring)-1]
	prevIn := in(prev)
	for _, cur := range ring {
		curIn := in(cur)
		if curIn != prevIn {
			out = appendPoint(out, crossing(prev, cur, line, vertical))
		}
		if curIn {
			out = appendPoint(out, cur)
		}
		prev, prevIn = cur, curIn
	}
	if len(out) > 1 && out[0] == out[len(out)-1] {
		out = out[:len(out)-1]
	}
	if len(out) < 3 {
		return nil
	}
	return out
}

// crossing returns where the edge a→b crosses the line, rounded to a unit:
// the same point for b→a, so that two rings sharing the edge share it too.
func crossing(a, b Point, line int32, vertical bool) Point {
	if less(b, a) {
		a, b = b, a
	}
	if !vertical {
		a.X, a.Y, b.X, b.Y = a.Y, a.X, b.Y, b.X
	}
	num := int64(line-a.X) * int64(b.Y-a.Y)
	den := int64(b.X - a.X)
	p := Point{X: line, Y: a.Y + int32(roundDiv(num, den))}
	if !vertical {
		p.X, p.Y = p.Y, p.X
	}
	return p
}

// roundDiv returns num/den rounded to the nearest integer, halves away from
// zero.
func roundDiv(num, den int64) int64 {
	if den < 0 {
		num, den = -num, -den
	}
	if num >= 0 {
		return (num + den/2) / den
	}
	return -((-num + den/2) / den)
}

func appendPoint(ring []Point, p Point) []Point {
	if n := len(ring); n > 0 && ring[n-1] == p {
		return ring
	}
	return append(ring, p)
}

// ringKind is what a clipped ring means for the points of its window.
type ringKind int

const (
	ringNone    ringKind = iota // covers no point of the window
	ringAll                     // covers every point of the window (an odd number of times)
	ringPartial                 // covers some: keep its edges
)

// classify tells what a ring already clipped to w does inside w. A ring
// whose every edge runs along w's borders covers all of w or none of it,
// depending on how often it winds around w.
func classify(ring []Point, w window) (ringKind, error) {
	if len(ring) < 3 {
		return ringNone, nil
	}
	var area2 int64 // twice the signed area
	prev := ring[len(ring)-1]
	border := true
	for _, cur := range ring {
		border = border && onBorder(prev, cur, w)
		area2 += int64(prev.X)*int64(cur.Y) - int64(cur.X)*int64(prev.Y)
		prev = cur
	}
	if !border {
		return ringPartial, nil
	}
	full := 2 * int64(w.x1-w.x0) * int64(w.y1-w.y0)
	if area2%full != 0 {
		return ringNone, fmt.Errorf("ring along the borders of %+v has area %d/2, not a multiple of the window's", w, area2)
	}
	if (area2/full)%2 != 0 {
		return ringAll, nil
	}
	return ringNone, nil
}

// onBorder reports whether the edge a→b runs along one of w's borders.
func onBorder(a, b Point, w window) bool {
	return (a.X == b.X && (a.X == w.x0 || a.X == w.x1)) ||
		(a.Y == b.Y && (a.Y == w.y0 || a.Y == w.y1))
}
