// Command benchcli makes the files scripts/bench-cli uploads: distinct
// JPEGs of a chosen size (a small real image, then APP15 segments of
// random bytes, so every file is a valid JPEG with its own checksum, made
// in milliseconds whatever its size).
//
//	benchcli photos DIR COUNT SIZE_BYTES    COUNT files of SIZE_BYTES
//	benchcli many DIR COUNT                 COUNT tiny files in folders of 1000
package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "benchcli:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) < 3 {
		return fmt.Errorf("usage: benchcli photos DIR COUNT SIZE_BYTES | benchcli many DIR COUNT")
	}
	dir := args[1]
	count, err := strconv.Atoi(args[2])
	if err != nil {
		return err
	}
	base, err := baseJPEG()
	if err != nil {
		return err
	}
	switch args[0] {
	case "photos":
		if len(args) != 4 {
			return fmt.Errorf("photos needs DIR COUNT SIZE_BYTES")
		}
		size, err := strconv.ParseInt(args[3], 10, 64)
		if err != nil {
			return err
		}
		for i := range count {
			if err := writeJPEG(filepath.Join(dir, fmt.Sprintf("IMG_%05d.jpg", i)), base, size, uint64(i)); err != nil {
				return err
			}
		}
	case "many":
		for i := range count {
			path := filepath.Join(dir, fmt.Sprintf("%03d", i/1000), fmt.Sprintf("IMG_%06d.jpg", i))
			if err := writeJPEG(path, base, 0, uint64(i)); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("unknown command %q", args[0])
	}
	return nil
}

// baseJPEG is a 64×48 image.
func baseJPEG() ([]byte, error) {
	img := image.NewRGBA(image.Rect(0, 0, 64, 48))
	for y := range 48 {
		for x := range 64 {
			img.Set(x, y, color.RGBA{uint8(x * 4), uint8(y * 5), 128, 255})
		}
	}
	var buf bytes.Buffer
	err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 80})
	return buf.Bytes(), err
}

// writeJPEG writes base with a unique comment and, up to size bytes,
// APP15 segments of random data after the SOI marker.
func writeJPEG(path string, base []byte, size int64, seed uint64) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	w.Write(base[:2]) // SOI
	comment := []byte(fmt.Sprintf("benchcli %d", seed))
	segment(w, 0xFE, comment)
	rng := rand.New(rand.NewPCG(seed, 42))
	left := size - int64(len(base)) - int64(len(comment)) - 4
	chunk := make([]byte, 65528) // a multiple of 8 below the segment limit
	for left > 4 {
		n := min(int64(len(chunk)), left-4)
		for i := 0; i+8 <= len(chunk); i += 8 {
			binary.LittleEndian.PutUint64(chunk[i:], rng.Uint64())
		}
		segment(w, 0xEF, chunk[:n])
		left -= n + 4
	}
	w.Write(base[2:])
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func segment(w *bufio.Writer, marker byte, data []byte) {
	w.Write([]byte{0xFF, marker, byte((len(data) + 2) >> 8), byte(len(data) + 2)})
	w.Write(data)
}
