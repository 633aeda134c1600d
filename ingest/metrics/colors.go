package metrics

import (
	"image"
	"math"
	"strings"
)

// The colour signature complements the perceptual hash, which sees only
// luma and layout: a coarse histogram of sRGB colours, 4 levels per channel
// (64 bins, each colour shared between the levels around it), independent
// of layout, so mirrored and cropped copies keep it.
// Each bin's share p is written as one hex digit, round(15·√p): the square
// root keeps small but telling shares (a red coat) above zero.
const (
	colorLevels = 4
	colorBins   = colorLevels * colorLevels * colorLevels
	// colorSide bounds the pixels counted: the image is sampled on a grid
	// of at most colorSide² points.
	colorSide = 128
)

// ColorSignature returns img's colour signature: 64 hex digits. An image
// without pixels has "".
func ColorSignature(img image.Image) string {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if w <= 0 || h <= 0 {
		return ""
	}
	pix, stride, premultiplied := rgbaPixels(img)
	sw, sh := min(w, colorSide), min(h, colorSide)
	var bins [colorBins]float64
	for sy := range sh {
		row := pix[(sy*h/sh)*stride:]
		for sx := range sw {
			x := sx * w / sw
			p := row[4*x : 4*x+4 : 4*x+4]
			r, g, bl := onWhite(p[0], p[1], p[2], p[3], premultiplied)
			addSoft(&bins, r, g, bl)
		}
	}
	n := float64(sw * sh)
	var sb strings.Builder
	for _, c := range bins {
		sb.WriteByte("0123456789abcdef"[int(math.Round(15*math.Sqrt(c/n)))])
	}
	return sb.String()
}

// addSoft counts a colour in the 8 bins around it, each by how near the
// colour is to the bin's level on every channel (levels at 0, 85, 170 and
// 255): a colour near a boundary does not flip between bins when a copy
// shifts it slightly.
func addSoft(bins *[colorBins]float64, r, g, b uint32) {
	var lo [3]int
	var frac [3]float64
	for i, v := range [3]uint32{r, g, b} {
		pos := float64(min(v, 255)) * (colorLevels - 1) / 255
		lo[i] = min(int(pos), colorLevels-2)
		frac[i] = pos - float64(lo[i])
	}
	for corner := range 8 {
		w := 1.0
		idx := 0
		for i := range 3 {
			level, share := lo[i], 1-frac[i]
			if corner>>i&1 == 1 {
				level, share = lo[i]+1, frac[i]
			}
			w *= share
			idx = idx*colorLevels + level
		}
		bins[idx] += w
	}
}

// ColorSimilarity compares two colour signatures: the histogram
// intersection of their (renormalised) shares, 1 for the same colours, 0
// for none in common. A value that is not a signature compares as 0.
func ColorSimilarity(a, b string) float64 {
	pa, okA := colorShares(a)
	pb, okB := colorShares(b)
	if !okA || !okB {
		return 0
	}
	var s float64
	for i := range pa {
		s += math.Min(pa[i], pb[i])
	}
	return s
}

func colorShares(sig string) ([colorBins]float64, bool) {
	var p [colorBins]float64
	if len(sig) != colorBins {
		return p, false
	}
	var sum float64
	for i := range colorBins {
		d := strings.IndexByte("0123456789abcdef", sig[i])
		if d < 0 {
			return p, false
		}
		p[i] = float64(d*d) / 225
		sum += p[i]
	}
	if sum == 0 {
		return p, false
	}
	for i := range p {
		p[i] /= sum
	}
	return p, true
}
