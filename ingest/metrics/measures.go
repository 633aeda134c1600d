package metrics

import "math"

// sharpness is the variance of the 4-neighbour Laplacian of the luma over
// the interior pixels, less the part white noise of σ noise contributes
// (the Laplacian's weights squared sum to 20, so 20σ²), mapped to 0..1 by
// v/(v+SharpnessHalf). Without the correction grain reads as detail.
func sharpness(s *sample, noise float64) float64 {
	if s.w < 3 || s.h < 3 {
		return 0
	}
	var sum, sum2 float64
	for y := 1; y < s.h-1; y++ {
		up, row, down := s.luma[(y-1)*s.w:], s.luma[y*s.w:], s.luma[(y+1)*s.w:]
		for x := 1; x < s.w-1; x++ {
			l := float64(up[x] + down[x] + row[x-1] + row[x+1] - 4*row[x])
			sum += l
			sum2 += l * l
		}
	}
	n := float64((s.w - 2) * (s.h - 2))
	mean := sum / n
	v := max(0, sum2/n-mean*mean-20*noise*noise)
	return v / (v + SharpnessHalf)
}

// exposureContrast returns the exposure score and the RMS contrast (see
// Metrics) from the luma's mean, spread and clipped share.
func exposureContrast(s *sample) (exposure, contrast float64) {
	var sum, sum2 float64
	clipped := 0
	for _, l := range s.luma {
		v := float64(l)
		sum += v
		sum2 += v * v
		if v <= 2 || v >= 253 {
			clipped++
		}
	}
	n := float64(len(s.luma))
	mean := sum / n / 255
	sd := math.Sqrt(max(0, sum2/n/(255*255)-mean*mean))
	exposure = (1 - 4*(mean-0.5)*(mean-0.5)) * (1 - float64(clipped)/n)
	return max(0, exposure), min(1, 2*sd)
}

// noiseSigma estimates the standard deviation of the noise in the luma,
// in levels: Immerkær's σ = √(π/2)/6 · mean |I∗N| with the mask
// N = [1 −2 1; −2 4 −2; 1 −2 1], which cancels any locally linear signal,
// taken over the pixels whose Sobel gradient is below the 90th percentile,
// since edges and texture would pass for noise. Its buffers live in sc.
func noiseSigma(s *sample, sc *scratch) float64 {
	if s.w < 3 || s.h < 3 {
		return 0
	}
	n := (s.w - 2) * (s.h - 2)
	sc.grad, sc.resp = grow(sc.grad, n), grow(sc.resp, n) // every element is set below
	grad, resp := sc.grad, sc.resp
	k := 0
	var hist [2 * 4 * 255 * 2]int // |Gx|+|Gy| ≤ 2·4·255, in half levels
	for y := 1; y < s.h-1; y++ {
		up, row, down := s.luma[(y-1)*s.w:], s.luma[y*s.w:], s.luma[(y+1)*s.w:]
		for x := 1; x < s.w-1; x++ {
			a, b, c := up[x-1], up[x], up[x+1]
			d, e, f := row[x-1], row[x], row[x+1]
			g, h, i := down[x-1], down[x], down[x+1]
			gx := (c + 2*f + i) - (a + 2*d + g)
			gy := (g + 2*h + i) - (a + 2*b + c)
			mag := uint16(min(float32(len(hist)-1), 2*(abs32(gx)+abs32(gy))))
			grad[k], resp[k] = mag, abs32(a+c+g+i-2*(b+d+f+h)+4*e)
			hist[mag]++
			k++
		}
	}
	threshold, seen := 0, 0
	for ; threshold < len(hist); threshold++ {
		if seen += hist[threshold]; seen >= n*9/10 {
			break
		}
	}
	var sum float64
	count := 0
	for k, m := range grad {
		if int(m) <= threshold {
			sum += float64(resp[k])
			count++
		}
	}
	return math.Sqrt(math.Pi/2) / 6 * sum / float64(count)
}

// abs32 clears the sign bit: noise has random signs, which a branch would
// mispredict half the time.
func abs32(v float32) float32 { return math.Float32frombits(math.Float32bits(v) &^ (1 << 31)) }
