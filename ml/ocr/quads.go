package ocr

import (
	"math"
	"slices"
)

// quad is a text line's outline in image pixels: top-left, top-right,
// bottom-right, bottom-left, as the text reads.
type quad [4][2]float64

func (q quad) bounds() (x0, y0, x1, y1 float64) {
	x0, y0, x1, y1 = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range q {
		x0, y0 = math.Min(x0, p[0]), math.Min(y0, p[1])
		x1, y1 = math.Max(x1, p[0]), math.Max(y1, p[1])
	}
	return x0, y0, x1, y1
}

// size is the quad's width (along the text) and height.
func (q quad) size() (w, h float64) {
	d := func(a, b [2]float64) float64 { return math.Hypot(a[0]-b[0], a[1]-b[1]) }
	return math.Max(d(q[0], q[1]), d(q[3], q[2])), math.Max(d(q[0], q[3]), d(q[1], q[2]))
}

// rect is a rotated rectangle: centre, side lengths and the direction of
// the first side.
type rect struct {
	cx, cy, w, h, angle float64
}

// grow returns r with every side pushed out by d.
func (r rect) grow(d float64) rect {
	r.w += 2 * d
	r.h += 2 * d
	return r
}

// quad returns the corners in reading order: the two leftmost points form
// the left side, and of each side the upper one comes first (PaddleOCR's
// get_mini_boxes).
func (r rect) quad() quad {
	c, s := math.Cos(r.angle), math.Sin(r.angle)
	ux, uy := c*r.w/2, s*r.w/2
	vx, vy := -s*r.h/2, c*r.h/2
	pts := [][2]float64{
		{r.cx - ux - vx, r.cy - uy - vy}, {r.cx + ux - vx, r.cy + uy - vy},
		{r.cx + ux + vx, r.cy + uy + vy}, {r.cx - ux + vx, r.cy - uy + vy},
	}
	slices.SortFunc(pts, func(a, b [2]float64) int { return cmp(a[0], b[0]) })
	left, right := pts[:2], pts[2:]
	if left[0][1] > left[1][1] {
		left[0], left[1] = left[1], left[0]
	}
	if right[0][1] > right[1][1] {
		right[0], right[1] = right[1], right[0]
	}
	return quad{left[0], right[0], right[1], left[1]}
}

// contains reports whether (x, y) lies in r.
func (r rect) contains(x, y float64) bool {
	c, s := math.Cos(r.angle), math.Sin(r.angle)
	dx, dy := x-r.cx, y-r.cy
	return math.Abs(dx*c+dy*s) <= r.w/2 && math.Abs(-dx*s+dy*c) <= r.h/2
}

// minAreaRect returns the smallest rotated rectangle around pts: one of
// its sides lies on an edge of their convex hull (rotating calipers).
func minAreaRect(pts [][2]float64) rect {
	hull := convexHull(pts)
	if len(hull) == 1 {
		return rect{cx: hull[0][0], cy: hull[0][1]}
	}
	best := rect{w: math.Inf(1), h: 1}
	for i := range hull {
		a, b := hull[i], hull[(i+1)%len(hull)]
		ex, ey := b[0]-a[0], b[1]-a[1]
		n := math.Hypot(ex, ey)
		if n == 0 {
			continue
		}
		ex, ey = ex/n, ey/n
		u0, u1, v0, v1 := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
		for _, p := range hull {
			u := p[0]*ex + p[1]*ey
			v := -p[0]*ey + p[1]*ex
			u0, u1 = math.Min(u0, u), math.Max(u1, u)
			v0, v1 = math.Min(v0, v), math.Max(v1, v)
		}
		if (u1-u0)*(v1-v0) < best.w*best.h {
			uc, vc := (u0+u1)/2, (v0+v1)/2
			best = rect{cx: uc*ex - vc*ey, cy: uc*ey + vc*ex, w: u1 - u0, h: v1 - v0, angle: math.Atan2(ey, ex)}
		}
	}
	return best
}

// convexHull returns the hull of pts counter-clockwise (Andrew's monotone
// chain); collinear points are dropped.
func convexHull(pts [][2]float64) [][2]float64 {
	p := slices.Clone(pts)
	slices.SortFunc(p, func(a, b [2]float64) int {
		if c := cmp(a[0], b[0]); c != 0 {
			return c
		}
		return cmp(a[1], b[1])
	})
	p = slices.Compact(p)
	if len(p) < 3 {
		return p
	}
	cross := func(o, a, b [2]float64) float64 {
		return (a[0]-o[0])*(b[1]-o[1]) - (a[1]-o[1])*(b[0]-o[0])
	}
	hull := make([][2]float64, 0, 2*len(p))
	for _, pass := range [2]bool{false, true} {
		start := len(hull)
		for i := range p {
			q := p[i]
			if pass {
				q = p[len(p)-1-i]
			}
			for len(hull) >= start+2 && cross(hull[len(hull)-2], hull[len(hull)-1], q) <= 0 {
				hull = hull[:len(hull)-1]
			}
			hull = append(hull, q)
		}
		hull = hull[:len(hull)-1]
	}
	return hull
}

func cmp(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
