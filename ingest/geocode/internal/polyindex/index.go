package polyindex

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Index is an opened index. It only reads its byte slice, so it is safe for
// concurrent use.
type Index struct {
	attrs []string // attributes, shape by shape
	width int      // attributes per shape
	grid  []byte   // u32 node offsets
	nodes []byte
}

// Open reads an index made by Build. It checks the whole index, so that a
// lookup never reads out of bounds whatever the bytes; data is kept (not
// copied) and must not change afterwards.
func Open(data []byte) (*Index, error) {
	const headerSize = 24
	if len(data) < len(magic)+headerSize || string(data[:len(magic)]) != magic {
		return nil, errors.New("open index: not an index")
	}
	h := data[len(magic):]
	var hdr [headerSize / 4]uint64
	for i := range hdr {
		hdr[i] = uint64(binary.LittleEndian.Uint32(h[4*i:]))
	}
	units, width, shapes, nstr, strBytes, nodeBytes := hdr[0], hdr[1], hdr[2], hdr[3], hdr[4], hdr[5]
	if units != UnitsPerDegree {
		return nil, fmt.Errorf("open index: made with %d units per degree, this code uses %d", units, UnitsPerDegree)
	}
	if width > 1<<10 || shapes > 1<<28 {
		return nil, fmt.Errorf("open index: %d shapes of %d attributes", shapes, width)
	}
	rest := h[headerSize:]
	need := 4*nstr + 4*shapes*width + 4*cols*rows + strBytes + nodeBytes
	if uint64(len(rest)) != need || nodeBytes == 0 {
		return nil, fmt.Errorf("open index: %d bytes after the header, the header says %d", len(rest), need)
	}
	ends, rest := rest[:4*nstr], rest[4*nstr:]
	table, rest := rest[:4*shapes*width], rest[4*shapes*width:]
	grid, rest := rest[:4*cols*rows], rest[4*cols*rows:]
	strs, nodes := rest[:strBytes], rest[strBytes:]

	strings := make([]string, nstr)
	start := uint64(0)
	for i := range strings {
		end := uint64(binary.LittleEndian.Uint32(ends[4*i:]))
		if end < start || end > strBytes {
			return nil, fmt.Errorf("open index: string %d ends at %d", i, end)
		}
		strings[i] = string(strs[start:end])
		start = end
	}
	ix := &Index{attrs: make([]string, shapes*width), width: int(width), grid: grid, nodes: nodes}
	for i := range ix.attrs {
		id := uint64(binary.LittleEndian.Uint32(table[4*i:]))
		if id >= nstr {
			return nil, fmt.Errorf("open index: attribute %d is string %d of %d", i, id, nstr)
		}
		ix.attrs[i] = strings[id]
	}
	for cell := range cols * rows {
		off := binary.LittleEndian.Uint32(grid[4*cell:])
		if off == 0 {
			continue
		}
		if err := ix.check(off, cellWindow(cell%cols, cell/cols), 0, int(shapes)); err != nil {
			return nil, fmt.Errorf("open index: cell %d: %w", cell, err)
		}
	}
	return ix, nil
}

// Shapes returns how many shapes the index holds.
func (ix *Index) Shapes() int {
	if ix.width == 0 {
		return 0
	}
	return len(ix.attrs) / ix.width
}

// Attrs returns the attributes of shape number i, as built. The slice is
// the index's own: do not change it.
func (ix *Index) Attrs(i int) []string {
	return ix.attrs[i*ix.width : (i+1)*ix.width : (i+1)*ix.width]
}

// Contains appends to dst the numbers of the shapes that contain p, in
// ascending order, and returns the extended slice. A point on a shape's
// border may count as inside or not.
func (ix *Index) Contains(p Point, dst []int32) []int32 {
	c, r := cellOf(p.X, originX, cols), cellOf(p.Y, originY, rows)
	off := binary.LittleEndian.Uint32(ix.grid[4*(r*cols+c):])
	w := cellWindow(c, r)
	for off != 0 && ix.nodes[off] == tagInner {
		q := 0
		if mx := w.x0 + (w.x1-w.x0)/2; p.X > mx {
			q, w.x0 = 1, mx
		} else {
			w.x1 = mx
		}
		if my := w.y0 + (w.y1-w.y0)/2; p.Y > my {
			q, w.y0 = q|2, my
		} else {
			w.y1 = my
		}
		off = binary.LittleEndian.Uint32(ix.nodes[int(off)+1+4*q:])
	}
	if off == 0 {
		return dst
	}
	d := decoder{b: ix.nodes, i: int(off) + 1}
	var shapes [maxLeafShapes]int32
	n := d.uvarint()
	shape := int32(0)
	for i := range n {
		shape += int32(d.uvarint())
		shapes[i] = shape
	}
	inside := d.uvarint()
	for range d.uvarint() {
		mask := d.uvarint()
		if d.chainCrossesOddly(p, w) {
			inside ^= mask
		}
	}
	for i := range n {
		if inside&(1<<i) != 0 {
			dst = append(dst, shapes[i])
		}
	}
	return dst
}

// chainCrossesOddly reads one chain and reports whether a ray from p due
// east crosses it an odd number of times.
func (d *decoder) chainCrossesOddly(p Point, w window) bool {
	n := d.uvarint()
	x0, y0 := w.x0+int32(d.uvarint()), w.y0+int32(d.uvarint())
	odd := false
	ax, ay := x0, y0
	for i := uint64(1); i < n>>1; i++ {
		bx, by := ax+int32(d.varint()), ay+int32(d.varint())
		odd = odd != crosses(ax, ay, bx, by, p)
		ax, ay = bx, by
	}
	if n&1 == 1 {
		odd = odd != crosses(ax, ay, x0, y0, p)
	}
	return odd
}

// crosses reports whether the edge a→b crosses the ray from p due east. A
// vertex level with p counts as above it, so a ray through a vertex crosses
// the two edges that meet there once in all, or not at all, as it should.
func crosses(ax, ay, bx, by int32, p Point) bool {
	if (ay > p.Y) == (by > p.Y) {
		return false
	}
	if ax > p.X && bx > p.X {
		return true
	}
	if ax <= p.X && bx <= p.X {
		return false
	}
	// The crossing's x is ax + (p.Y-ay)(bx-ax)/(by-ay); compare it with p.X
	// without dividing.
	s := int64(ax-p.X)*int64(by-ay) + int64(p.Y-ay)*int64(bx-ax)
	if by > ay {
		return s > 0
	}
	return s < 0
}

// decoder reads varints from a checked index.
type decoder struct {
	b []byte
	i int
}

func (d *decoder) uvarint() uint64 {
	// Most numbers take one or two bytes: read those without a loop.
	b := d.b[d.i:]
	if b[0] < 0x80 {
		d.i++
		return uint64(b[0])
	}
	if len(b) > 1 && b[1] < 0x80 {
		d.i += 2
		return uint64(b[0]&0x7f) | uint64(b[1])<<7
	}
	v, n := binary.Uvarint(b)
	d.i += n
	return v
}

func (d *decoder) varint() int64 {
	u := d.uvarint()
	return int64(u>>1) ^ -int64(u&1)
}
