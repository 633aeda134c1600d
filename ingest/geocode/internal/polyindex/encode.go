package polyindex

import (
	"encoding/binary"
	"fmt"
)

// The index is one byte slice, little-endian:
//
//	magic       "POLYIDX2"
//	header      u32 units per degree, attributes per shape, shapes, strings, string bytes, node bytes
//	string ends u32 × strings (end offsets into the string bytes)
//	attributes  u32 × shapes × attributes per shape (string numbers)
//	grid        u32 × 360 × 180 (node offsets, row by row from the south-west; 0 = no shape)
//	strings     the string bytes
//	nodes       the node bytes; offset 0 holds a pad byte so that 0 can mean "none"
//
// A node starts with a tag byte. Tag 1, an inner node, is followed by four
// u32 offsets of its quadrants (south-west, south-east, north-west,
// north-east; 0 = no shape there), each greater than the node's own. Tag 0,
// a leaf, is followed by uvarints: the number of shapes (1 to 64), the first
// shape, each next one minus the one before (so ascending), the mask of the
// shapes the leaf is inside of apart from its chains (bit i for the i-th
// shape), the number of chains, and for each chain: the mask of the shapes
// it bounds, its vertices<<1 | 1 if its last vertex joins its first, the
// first vertex as x-x0 and y-y0 from the leaf's south-west corner, and each
// next one as zigzag differences.
const magic = "POLYIDX2"

const (
	tagLeaf  = 0
	tagInner = 1
)

// encoder writes an index.
type encoder struct {
	attrs   int
	shapes  int
	strings []string
	ids     map[string]uint32
	table   []uint32 // string numbers, shape by shape
	grid    []uint32
	nodes   []byte
	stats   Stats
}

func newEncoder(shapes []Shape) *encoder {
	e := &encoder{
		attrs:  len(shapes[0].Attrs),
		shapes: len(shapes),
		ids:    map[string]uint32{},
		grid:   make([]uint32, cols*rows),
		nodes:  []byte{0},
	}
	for _, s := range shapes {
		for _, a := range s.Attrs {
			id, ok := e.ids[a]
			if !ok {
				id = uint32(len(e.strings))
				e.ids[a] = id
				e.strings = append(e.strings, a)
			}
			e.table = append(e.table, id)
		}
	}
	return e
}

// maxLeafShapes is how many shapes a leaf can name: its masks are uint64.
const maxLeafShapes = 64

// node writes the quadtree node for window w and returns its offset.
func (e *encoder) node(w window, entries []entry, depth int, opt Options) (uint32, error) {
	if len(e.nodes) > 1<<31 {
		return 0, fmt.Errorf("index over 2 GB")
	}
	off := uint32(len(e.nodes))
	if len(entries) <= maxLeafShapes {
		// What a lookup reads is the leaf's chains: count their vertices.
		cs := chains(entries, w)
		if depth == opt.MaxDepth || chainVertices(cs) <= opt.LeafVertices {
			return off, e.leaf(w, entries, cs)
		}
	} else if depth == opt.MaxDepth {
		return 0, fmt.Errorf("%d shapes meet in %+v, more than a leaf can hold", len(entries), w)
	}
	e.stats.Inner++
	e.nodes = append(e.nodes, tagInner)
	e.nodes = append(e.nodes, make([]byte, 16)...)
	for q := range 4 {
		sub, err := split(entries, w.quadrant(q))
		if err != nil {
			return 0, err
		}
		if len(sub) == 0 {
			continue
		}
		child, err := e.node(w.quadrant(q), sub, depth+1, opt)
		if err != nil {
			return 0, err
		}
		binary.LittleEndian.PutUint32(e.nodes[int(off)+1+4*q:], child)
	}
	return off, nil
}

func (e *encoder) leaf(w window, entries []entry, cs []chain) error {
	b := append(e.nodes, tagLeaf)
	b = binary.AppendUvarint(b, uint64(len(entries)))
	prev, inside := int32(0), uint64(0)
	for i, en := range entries {
		b = binary.AppendUvarint(b, uint64(en.shape-prev))
		prev = en.shape
		if en.inside {
			inside |= 1 << i
		}
	}
	b = binary.AppendUvarint(b, inside)
	b = binary.AppendUvarint(b, uint64(len(cs)))
	for _, c := range cs {
		b = binary.AppendUvarint(b, c.mask)
		n := uint64(len(c.points)) << 1
		if c.closed {
			n |= 1
		}
		b = binary.AppendUvarint(b, n)
		b = binary.AppendUvarint(b, uint64(c.points[0].X-w.x0))
		b = binary.AppendUvarint(b, uint64(c.points[0].Y-w.y0))
		for i := 1; i < len(c.points); i++ {
			b = binary.AppendVarint(b, int64(c.points[i].X-c.points[i-1].X))
			b = binary.AppendVarint(b, int64(c.points[i].Y-c.points[i-1].Y))
		}
		e.stats.Vertices += len(c.points)
	}
	e.stats.Leaves++
	e.stats.Chains += len(cs)
	e.nodes = b
	return nil
}

func chainVertices(cs []chain) int {
	n := 0
	for _, c := range cs {
		n += len(c.points)
	}
	return n
}

func (e *encoder) bytes() []byte {
	size := 0
	for _, s := range e.strings {
		size += len(s)
	}
	b := []byte(magic)
	for _, v := range []int{UnitsPerDegree, e.attrs, e.shapes, len(e.strings), size, len(e.nodes)} {
		b = binary.LittleEndian.AppendUint32(b, uint32(v))
	}
	end := 0
	for _, s := range e.strings {
		end += len(s)
		b = binary.LittleEndian.AppendUint32(b, uint32(end))
	}
	for _, id := range e.table {
		b = binary.LittleEndian.AppendUint32(b, id)
	}
	for _, off := range e.grid {
		b = binary.LittleEndian.AppendUint32(b, off)
	}
	for _, s := range e.strings {
		b = append(b, s...)
	}
	return append(b, e.nodes...)
}
