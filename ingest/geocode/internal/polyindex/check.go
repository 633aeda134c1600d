package polyindex

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// check walks the node at off, which covers w at the given depth, and
// everything below it, and fails on anything a lookup could trip over:
// offsets outside the nodes or not moving forward (so no cycles), trees
// deeper than MaxDepth, malformed varints, shape numbers not ascending or out of
// range, chains of fewer than two vertices, vertices outside w.
func (ix *Index) check(off uint32, w window, depth, shapes int) error {
	if int(off) >= len(ix.nodes) {
		return fmt.Errorf("node offset %d beyond %d bytes", off, len(ix.nodes))
	}
	switch ix.nodes[off] {
	case tagInner:
		if depth == MaxDepth || int(off)+17 > len(ix.nodes) {
			return fmt.Errorf("inner node at %d: too deep or cut short", off)
		}
		for q := range 4 {
			child := binary.LittleEndian.Uint32(ix.nodes[int(off)+1+4*q:])
			if child == 0 {
				continue
			}
			if child <= off {
				return fmt.Errorf("inner node at %d points back to %d", off, child)
			}
			if err := ix.check(child, w.quadrant(q), depth+1, shapes); err != nil {
				return err
			}
		}
		return nil
	case tagLeaf:
		return ix.checkLeaf(off, w, shapes)
	default:
		return fmt.Errorf("node at %d has tag %d", off, ix.nodes[off])
	}
}

func (ix *Index) checkLeaf(off uint32, w window, shapes int) error {
	c := checker{b: ix.nodes, i: int(off) + 1}
	n := c.uvarint()
	if c.err == nil && (n == 0 || n > maxLeafShapes) {
		return fmt.Errorf("leaf at %d names %d shapes", off, n)
	}
	shape := uint64(0)
	for k := uint64(0); k < n && c.err == nil; k++ {
		delta := c.uvarint()
		if k > 0 && delta == 0 {
			return fmt.Errorf("leaf at %d: shapes not ascending", off)
		}
		shape += delta
		if shape >= uint64(shapes) {
			return fmt.Errorf("leaf at %d: shape %d of %d", off, shape, shapes)
		}
	}
	c.uvarint() // inside: any bits beyond the shapes are never read
	chains := c.uvarint()
	for k := uint64(0); k < chains && c.err == nil; k++ {
		c.uvarint() // mask, likewise
		if err := c.chain(w); err != nil {
			return fmt.Errorf("leaf at %d: %w", off, err)
		}
	}
	if c.err != nil {
		return fmt.Errorf("leaf at %d: %w", off, c.err)
	}
	return nil
}

// checker reads varints with bounds checks; the first failure sticks.
type checker struct {
	b   []byte
	i   int
	err error
}

var errVarint = errors.New("malformed or cut-short varint")

func (c *checker) uvarint() uint64 {
	if c.err != nil {
		return 0
	}
	if c.i >= len(c.b) {
		c.err = errVarint
		return 0
	}
	v, n := binary.Uvarint(c.b[c.i:])
	if n <= 0 {
		c.err = errVarint
		return 0
	}
	c.i += n
	return v
}

// chain reads one chain and checks that it has at least two vertices, all
// within w.
func (c *checker) chain(w window) error {
	n := c.uvarint() >> 1
	if c.err == nil && n < 2 {
		return fmt.Errorf("chain of %d vertices", n)
	}
	size := uint64(w.x1 - w.x0)
	dx, dy := c.uvarint(), c.uvarint()
	if dx > size || dy > size {
		return fmt.Errorf("chain starts outside its leaf")
	}
	x, y := int64(w.x0)+int64(dx), int64(w.y0)+int64(dy)
	for i := uint64(1); i < n && c.err == nil; i++ {
		ux, uy := c.uvarint(), c.uvarint()
		x += int64(ux>>1) ^ -int64(ux&1)
		y += int64(uy>>1) ^ -int64(uy&1)
		if x < int64(w.x0) || x > int64(w.x1) || y < int64(w.y0) || y > int64(w.y1) {
			return fmt.Errorf("chain leaves its leaf")
		}
	}
	return c.err
}
