// Package metrics measures the technical quality of a photo from its
// pixels: sharpness, exposure, contrast, colourfulness, noise, an overall
// quality, and a perceptual hash for finding near-duplicates. Everything
// is computed on a copy of at most SampleSize px on the long side (the
// pipeline passes the preview sample ingest/variant decodes), so the
// numbers describe the photo as a person sees it on screen, and cost a few
// milliseconds. Standard library only.
package metrics

import (
	"image"
	"sync"
)

// SampleSize is the long side, in pixels, images are reduced to (by area
// averaging) before measuring. Smaller images are measured as they are.
const SampleSize = 512

// Metrics are the measures of one image. All but PHash lie in 0..1.
type Metrics struct {
	// Sharpness is the variance v of the Laplacian of the luma (0..255),
	// less 20σ² for the estimated noise σ (white noise's share of it),
	// mapped to v/(v+SharpnessHalf): 0.5 at v = 200, about 0.2 for an
	// out-of-focus or shaken photo, 0.8 and up for a crisp one.
	Sharpness float64
	// Exposure is 1 for a mean luma in the middle of the range and falls
	// quadratically towards black or white, times the share of pixels
	// not clipped (luma ≤ 2 or ≥ 253): 1−4(m−½)², times (1−clipped).
	Exposure float64
	// Contrast is RMS contrast, the standard deviation of the luma on a
	// 0..1 scale, doubled so that 1 is the largest possible (half black,
	// half white). Most photos lie between 0.3 and 0.6.
	Contrast float64
	// Colorfulness is Hasler and Süsstrunk's M (2003) divided by 109,
	// their "extremely colourful", and capped at 1: 0 is grey, about 0.3
	// "moderately", 0.55 "quite" colourful.
	Colorfulness float64
	// Noise is higher for noisier images: the standard deviation σ of the
	// noise, in luma levels, estimated with Immerkær's method (1996) over
	// the flat areas (the 10% strongest edges left out, after Tai and
	// Yang 2008), divided by NoiseFull and capped at 1.
	Noise float64
	// Quality is higher for better photos: the weighted sum
	// 0.40·Sharpness + 0.25·Exposure + 0.15·min(1, 2·Contrast)
	// + 0.15·(1−Noise) + 0.05·Colorfulness.
	Quality float64
	// PHash is the 64-bit DCT perceptual hash as 16 lowercase hex digits;
	// compare two with HammingDistance.
	PHash string
	// MirrorPHash is the PHash of the image flipped horizontally (image
	// search looks for mirror images with it).
	MirrorPHash string
	// Crops are the PHashes of the image's likeliest crops (crops.go), for
	// image search to find a crop of the image.
	Crops []CropHash
}

// The scales of the normalising curves (see Metrics).
const (
	// SharpnessHalf is the Laplacian variance that scores 0.5.
	SharpnessHalf = 200
	// NoiseFull is the noise σ, in luma levels at SampleSize, that scores 1.
	NoiseFull = 10
	// colorfulnessFull is Hasler and Süsstrunk's "extremely colourful".
	colorfulnessFull = 109
)

// Compute measures img. An image with no pixels has zero Metrics. It is
// safe for concurrent use.
func Compute(img image.Image) Metrics {
	sc := scratches.Get().(*scratch)
	defer scratches.Put(sc)
	s := newSample(img, SampleSize, sc)
	if s.w == 0 || s.h == 0 {
		return Metrics{}
	}
	sigma := noiseSigma(s, sc)
	m := Metrics{
		Sharpness:    sharpness(s, sigma),
		Colorfulness: min(1, s.colorfulness()/colorfulnessFull),
		Noise:        min(1, sigma/NoiseFull),
		Crops:        cropHashes(s, sc),
	}
	m.PHash, m.MirrorPHash = phash(s)
	m.Exposure, m.Contrast = exposureContrast(s)
	m.Quality = 0.40*m.Sharpness + 0.25*m.Exposure + 0.15*min(1, 2*m.Contrast) +
		0.15*(1-m.Noise) + 0.05*m.Colorfulness
	return m
}

// scratch is the working memory of one Compute (about 3.5 MB for a 512 px
// sample), kept between calls: fresh buffers for every photo cost their
// page faults and zeroing again.
type scratch struct {
	luma, resp []float32
	sat        []float64
	grad       []uint16
	acc        []uint32
	xs         []int
}

var scratches = sync.Pool{New: func() any { return new(scratch) }}

// grow returns buf resliced to n elements, reallocated when too small.
// The elements' values are left as they were.
func grow[T any](buf []T, n int) []T {
	if cap(buf) < n {
		return make([]T, n)
	}
	return buf[:n]
}
