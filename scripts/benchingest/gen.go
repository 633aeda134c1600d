package main

import (
	"bufio"
	"fmt"
	"image"
	"image/jpeg"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"time"
)

// places are where the generated photos were "taken", for the geocoder.
var places = []struct {
	lat, lon float64
	offset   string
}{
	{48.8584, 2.2945, "+02:00"}, {35.6586, 139.7454, "+09:00"}, {40.7484, -73.9857, "-04:00"},
	{-33.8568, 151.2153, "+10:00"}, {51.5007, -0.1246, "+01:00"}, {-22.9519, -43.2105, "-03:00"},
	{41.8902, 12.4922, "+02:00"}, {55.7539, 37.6208, "+03:00"},
}

// generate writes n distinct w×h photos into dir (photo-0001.jpg, ...),
// then tags them all in one exiftool process, as a camera would: make,
// model, lens, exposure, capture time with offset, GPS. Files already
// there are kept, so a cached set is reused.
func generate(dir string, n, w, h int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	start := time.Now()
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		errs []error
		made []string
	)
	next := make(chan int)
	for range runtime.NumCPU() {
		wg.Go(func() {
			for i := range next {
				path := filepath.Join(dir, fmt.Sprintf("photo-%04d.jpg", i+1))
				if _, err := os.Stat(path); err == nil {
					continue
				}
				err := writePhoto(path, w, h, uint64(i+1))
				mu.Lock()
				if err != nil {
					errs = append(errs, err)
				} else {
					made = append(made, path)
				}
				mu.Unlock()
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	if len(errs) > 0 {
		return errs[0]
	}
	if err := tagPhotos(made); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "benchingest: %d new photos of %dx%d in %s\n", len(made), w, h, time.Since(start).Round(time.Second))
	return nil
}

// writePhoto encodes a photo-like picture — smooth light, a few hard-edged
// shapes, sensor grain — at quality 90, so that its size and decoding cost
// are a camera JPEG's (a 12 MP one is 3 to 5 MB).
func writePhoto(path string, w, h int, seed uint64) error {
	rng := rand.New(rand.NewPCG(seed, seed*0x9e3779b97f4a7c15))
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	type disc struct{ x, y, r2 int }
	var discs []disc
	for range 6 {
		r := h/12 + rng.IntN(h/6)
		discs = append(discs, disc{rng.IntN(w), rng.IntN(h), r * r})
	}
	base := [3]int{rng.IntN(80), rng.IntN(80), rng.IntN(80)}
	for y := range h {
		for x := range w {
			r, g, b := base[0]+150*x/w, base[1]+120*y/h, base[2]+(x/7+y/5)%90
			for i, d := range discs {
				if dx, dy := x-d.x, y-d.y; dx*dx+dy*dy < d.r2 {
					r, g, b = 60+30*i, 200-25*i, 90+20*i
				}
			}
			n := rng.IntN(17) - 8
			o := img.PixOffset(x, y)
			img.Pix[o], img.Pix[o+1], img.Pix[o+2], img.Pix[o+3] = clamp(r+n), clamp(g+n), clamp(b+n), 255
		}
	}
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	if err := jpeg.Encode(bw, img, &jpeg.Options{Quality: 90}); err != nil {
		f.Close()
		return err
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

func clamp(v int) uint8 { return uint8(min(max(v, 0), 255)) }

// tagPhotos writes camera tags into the files with one exiftool process
// (an argument file with one command per photo).
func tagPhotos(paths []string) error {
	if len(paths) == 0 {
		return nil
	}
	args, err := os.CreateTemp("", "benchingest-args-*")
	if err != nil {
		return err
	}
	defer os.Remove(args.Name())
	w := bufio.NewWriter(args)
	for i, p := range paths {
		pl := places[i%len(places)]
		lines := []string{"-overwrite_original", "-Make=Canon", "-Model=Canon EOS R6", "-LensModel=RF24-105mm F4 L IS USM",
			"-FNumber=5.6", "-ExposureTime=1/320", "-ISO=200", "-FocalLength=50", "-Orientation#=1",
			fmt.Sprintf("-DateTimeOriginal=2024:06:%02d 10:%02d:%02d", 1+i%28, i%60, (i*7)%60),
			"-OffsetTimeOriginal=" + pl.offset,
			fmt.Sprintf("-GPSLatitude=%f", abs(pl.lat)), "-GPSLatitudeRef=" + hemi(pl.lat, "N", "S"),
			fmt.Sprintf("-GPSLongitude=%f", abs(pl.lon)), "-GPSLongitudeRef=" + hemi(pl.lon, "E", "W"),
			p, "-execute"}
		for _, l := range lines {
			fmt.Fprintln(w, l)
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if err := args.Close(); err != nil {
		return err
	}
	out, err := exec.Command("exiftool", "-q", "-@", args.Name()).CombinedOutput()
	if err != nil {
		return fmt.Errorf("exiftool: %v: %s", err, out)
	}
	return nil
}

func abs(v float64) float64 { return max(v, -v) }

func hemi(v float64, pos, neg string) string {
	if v < 0 {
		return neg
	}
	return pos
}
