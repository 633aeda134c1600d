package main

import (
	"bufio"
	"fmt"
	"log"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/sams96/rgeo"

	"github.com/photoctl/photoctl/ingest/geocode/internal/polyindex"
)

// How many points of each kind writeAnswers samples.
const (
	landPoints  = 3000 // uniform on the sphere, where rgeo knows a place
	seaPoints   = 500  // uniform on the sphere, where it knows none
	urbanPoints = 1500 // uniform in the bounding box of a random urban area
)

// writeAnswers writes what rgeo answers, the way ingest/geocode used it
// before it had its own index (Provinces10 and Cities10 loaded apart), for
// fixed pseudo-random points: the agreement test's expectations.
func writeAnswers(path string) error {
	start := time.Now()
	regions, err := rgeo.New(rgeo.Provinces10)
	if err != nil {
		return fmt.Errorf("load provinces: %w", err)
	}
	cities, err := rgeo.New(rgeo.Cities10)
	if err != nil {
		return fmt.Errorf("load cities: %w", err)
	}
	urban, _, err := readShapes(rgeo.Cities10())
	if err != nil {
		return fmt.Errorf("read cities: %w", err)
	}
	log.Printf("rgeo loaded in %s", time.Since(start).Round(time.Millisecond))

	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	fmt.Fprintf(w, "# rgeo v1.2.0's answers (Provinces10 and Cities10 loaded apart, as ingest/geocode used them),\n")
	fmt.Fprintf(w, "# written by `go run ./internal/gen -answers testdata/rgeo_answers.tsv`. Columns:\n")
	fmt.Fprintf(w, "# kind\tlat\tlon\tfound\tcountry\tcountry_long\tcountry_code_2\tprovince\tprovince_code\tcity\n")

	rng := rand.New(rand.NewPCG(2026, 4))
	write := func(kind string, a answer) error {
		fields := append([]string{kind}, a.fields()...)
		for _, s := range fields {
			if strings.ContainsAny(s, "\t\n") {
				return fmt.Errorf("%q at %v,%v has a tab or newline", s, a.lat, a.lon)
			}
		}
		_, err := fmt.Fprintln(w, strings.Join(fields, "\t"))
		return err
	}
	for land, sea := 0, 0; land < landPoints || sea < seaPoints; {
		a := ask(regions, cities, math.Asin(2*rng.Float64()-1)*180/math.Pi, rng.Float64()*360-180)
		kind := "sea"
		switch {
		case a.found && land < landPoints:
			land, kind = land+1, "land"
		case !a.found && sea < seaPoints:
			sea++
		default:
			continue
		}
		if err := write(kind, a); err != nil {
			return err
		}
	}
	for range urbanPoints {
		s := urban[rng.IntN(len(urban))]
		lo, hi := s.Rings[0][0], s.Rings[0][0]
		for _, r := range s.Rings {
			for _, p := range r {
				lo.X, lo.Y = min(lo.X, p.X), min(lo.Y, p.Y)
				hi.X, hi.Y = max(hi.X, p.X), max(hi.Y, p.Y)
			}
		}
		lon := (float64(lo.X) + rng.Float64()*float64(hi.X-lo.X)) / polyindex.UnitsPerDegree
		lat := (float64(lo.Y) + rng.Float64()*float64(hi.Y-lo.Y)) / polyindex.UnitsPerDegree
		if err := write("urban", ask(regions, cities, lat, lon)); err != nil {
			return err
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	log.Printf("%s: %d points in %s", path, landPoints+seaPoints+urbanPoints, time.Since(start).Round(time.Millisecond))
	return nil
}

// answer is what rgeo says about one position.
type answer struct {
	lat, lon float64
	found    bool
	region   rgeo.Location
	city     string
}

// ask asks rgeo about the position rounded to six decimals, the way it is
// written, so that the test asks about the very point rgeo answered for.
func ask(regions, cities *rgeo.Rgeo, lat, lon float64) answer {
	a := answer{lat: round6(lat), lon: round6(lon)}
	region, rErr := regions.ReverseGeocode([]float64{a.lon, a.lat})
	city, cErr := cities.ReverseGeocode([]float64{a.lon, a.lat})
	a.found, a.region, a.city = rErr == nil || cErr == nil, region, city.City
	return a
}

func (a answer) fields() []string {
	found := "0"
	if a.found {
		found = "1"
	}
	return []string{strconv.FormatFloat(a.lat, 'f', 6, 64), strconv.FormatFloat(a.lon, 'f', 6, 64), found,
		a.region.Country, a.region.CountryLong, a.region.CountryCode2, a.region.Province, a.region.ProvinceCode, a.city}
}

func round6(v float64) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'f', 6, 64), 64)
	return r
}
