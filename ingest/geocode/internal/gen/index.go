package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/sams96/rgeo"

	"github.com/photoctl/photoctl/ingest/geocode/internal/polyindex"
)

// indexOptions say how writeIndex builds the index.
type indexOptions struct {
	build     polyindex.Options
	tolerance map[string]float64 // by class: how far, in degrees, simplify may move boundaries
	only      string             // a dataset's name: index that one alone
}

// The classes of shapes, which may be simplified differently.
const (
	classRegion  = "region"  // Natural Earth's "Admin-1 states provinces"
	classCountry = "country" // "Admin-0 country"
	classCity    = "city"    // urban areas, which have no class
)

func shapeClass(featurecla string) string {
	switch featurecla {
	case "Admin-1 states provinces":
		return classRegion
	case "Admin-0 country":
		return classCountry
	case "":
		return classCity
	}
	return featurecla
}

// writeIndex builds the index of rgeo's Provinces10 (admin-1 regions, then
// admin-0 countries) and Cities10 (urban areas), in that order, and writes
// it gzipped. The same options always write the same bytes.
func writeIndex(path string, opts indexOptions) error {
	start := time.Now()
	var shapes []polyindex.Shape
	for _, d := range []struct {
		name string
		data func() []byte
	}{{"Provinces10", rgeo.Provinces10}, {"Cities10", rgeo.Cities10}} {
		if opts.only != "" && opts.only != d.name {
			continue
		}
		s, classes, err := readShapes(d.data())
		if err != nil {
			return fmt.Errorf("read %s: %w", d.name, err)
		}
		tol := make([]float64, len(s))
		for i, c := range classes {
			t, ok := opts.tolerance[shapeClass(c)]
			if !ok {
				return fmt.Errorf("read %s: feature %d of class %q", d.name, i, c)
			}
			tol[i] = t * polyindex.UnitsPerDegree
		}
		before := vertices(s)
		log.Printf("%s: %d shapes, %d vertices, %d after simplifying", d.name, len(s), before, simplify(s, tol))
		shapes = append(shapes, s...)
	}
	raw, stats, err := polyindex.Build(shapes, opts.build)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return err
	}
	zw.Comment = "photoctl place index from github.com/sams96/rgeo Provinces10 and Cities10; go generate ./ingest/geocode"
	if _, err := zw.Write(raw); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return err
	}
	log.Printf("%s: %d inner nodes, %d leaves, %d chains of %d vertices; %.1f MB, gzipped %.1f MB, in %s",
		path, stats.Inner, stats.Leaves, stats.Chains, stats.Vertices,
		float64(len(raw))/1e6, float64(buf.Len())/1e6, time.Since(start).Round(time.Millisecond))
	return nil
}

func vertices(shapes []polyindex.Shape) int {
	n := 0
	for _, s := range shapes {
		for _, r := range s.Rings {
			n += len(r)
		}
	}
	return n
}
