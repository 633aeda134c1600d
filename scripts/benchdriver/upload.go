package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"image/jpeg"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// noiseJPEG encodes a w×h image of random pixels at quality 100: noise does
// not compress, so a 1600×1200 image is several megabytes of real JPEG that
// the server's content sniffing accepts.
func noiseJPEG(r *rand.Rand, w, h int) ([]byte, error) {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(img.Pix); i += 4 {
		v := r.Uint32()
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = uint8(v), uint8(v>>8), uint8(v>>16), 255
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 100}); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// sizedJPEG is a noise JPEG of about size bytes (4:3; noise at quality 100
// takes about two bytes a pixel, measured and corrected once).
func sizedJPEG(r *rand.Rand, size int64) ([]byte, error) {
	pixels := float64(size) / 2
	for range 2 {
		w := int(math.Sqrt(pixels * 4 / 3))
		jpg, err := noiseJPEG(r, w, w*3/4)
		if err != nil || math.Abs(float64(int64(len(jpg))-size)) < 0.05*float64(size) {
			return jpg, err
		}
		pixels *= float64(size) / float64(len(jpg))
	}
	w := int(math.Sqrt(pixels * 4 / 3))
	return noiseJPEG(r, w, w*3/4)
}

// comment is a JPEG COM segment carrying tag, placed right after the SOI
// marker to give each uploaded copy its own checksum.
func comment(tag string) []byte {
	seg := []byte{0xFF, 0xFE, 0, 0}
	binary.BigEndian.PutUint16(seg[2:], uint16(2+len(tag)))
	return append(seg, tag...)
}

// multipartFile streams one file part: the readers in between the part
// header and the closing boundary make up the file.
type multipartFile struct {
	boundary, name string
	parts          []io.Reader
	size           int64
}

func (m multipartFile) body() (io.Reader, int64) {
	head := "--" + m.boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"" + m.name +
		"\"\r\nContent-Type: image/jpeg\r\n\r\n"
	tail := "\r\n--" + m.boundary + "--\r\n"
	readers := append([]io.Reader{strings.NewReader(head)}, m.parts...)
	readers = append(readers, strings.NewReader(tail))
	return io.MultiReader(readers...), int64(len(head)) + m.size + int64(len(tail))
}

// upload posts one file and expects 201.
func (c *client) upload(f multipartFile) error {
	body, n := f.body()
	req, err := http.NewRequest("POST", c.base+"/api/assets", body)
	if err != nil {
		return err
	}
	req.ContentLength = n
	req.Header.Set("Content-Type", "multipart/form-data; boundary="+f.boundary)
	req.Header.Set("Authorization", "Bearer "+c.key)
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusCreated {
		return fmt.Errorf("upload %s: %d %.300s", f.name, resp.StatusCode, out)
	}
	return nil
}

// parallel runs job(0..n-1) on workers goroutines and returns the elapsed
// time and the first error.
func parallel(n, workers int, job func(i int) error) (time.Duration, error) {
	var next atomic.Int64
	var first error
	var once sync.Once
	var wg sync.WaitGroup
	start := time.Now()
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				if err := job(i); err != nil {
					once.Do(func() { first = err })
					return
				}
			}
		}()
	}
	wg.Wait()
	return time.Since(start), first
}

// uploadThroughput uploads n copies of jpg, each with its own comment, on
// workers connections and returns MB/s of file bytes.
func (c *client) uploadThroughput(jpg []byte, n, workers int, run string) (float64, error) {
	size := int64(len(comment(run+"-000000")) + len(jpg))
	elapsed, err := parallel(n, workers, func(i int) error {
		tag := fmt.Sprintf("%s-%06d", run, i)
		return c.upload(multipartFile{boundary: "bench-" + tag, name: "bench-" + tag + ".jpg", size: size,
			parts: []io.Reader{bytes.NewReader(jpg[:2]), bytes.NewReader(comment(tag)), bytes.NewReader(jpg[2:])}})
	})
	if err != nil {
		return 0, err
	}
	return float64(size) * float64(n) / 1e6 / elapsed.Seconds(), nil
}

// diskThroughput writes n files of data into dir on workers goroutines,
// each fsynced before it is closed, removes them, and returns MB/s. With
// commit, each file is then also renamed into a subdirectory and that
// directory fsynced, as the server's blob store commits an upload.
func diskThroughput(dir string, data []byte, n, workers int, commit bool) (float64, error) {
	final, err := os.MkdirTemp(dir, "bench-disk-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(final)
	elapsed, err := parallel(n, workers, func(i int) error {
		f, err := os.CreateTemp(final, "tmp-*")
		if err != nil {
			return err
		}
		_, err = f.Write(data)
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil || !commit {
			return err
		}
		return renameAndSync(f.Name(), filepath.Join(final, fmt.Sprintf("blob-%06d", i)))
	})
	if err != nil {
		return 0, err
	}
	return float64(len(data)) * float64(n) / 1e6 / elapsed.Seconds(), nil
}

// renameAndSync renames a file and fsyncs the directory it lands in.
func renameAndSync(from, to string) error {
	if err := os.Rename(from, to); err != nil {
		return err
	}
	d, err := os.Open(filepath.Dir(to))
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// patternReader yields left bytes of a repeating pattern.
type patternReader struct {
	left    int64
	pattern []byte
}

func (r *patternReader) Read(p []byte) (int, error) {
	if r.left <= 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(int64(len(p)), r.left)], r.pattern)
	r.left -= int64(n)
	return n, nil
}

// bigUpload streams one file of size bytes: a real JPEG head, then a
// pattern generated on the fly.
func (c *client) bigUpload(jpg []byte, size int64, run string) (time.Duration, error) {
	head := append(append(jpg[:2:2], comment(run+"-big")...), jpg[2:64<<10]...)
	start := time.Now()
	err := c.upload(multipartFile{boundary: "bench-big-" + run, name: "big.jpg", size: size,
		parts: []io.Reader{bytes.NewReader(head), &patternReader{left: size - int64(len(head)), pattern: jpg[64<<10 : 128<<10]}}})
	return time.Since(start), err
}

func mb(b int64) string { return fmt.Sprintf("%.1f MB", float64(b)/1e6) }
