// Package geocode turns a GPS position into a place name offline: country,
// ISO 3166-1 alpha-2 code, state or province, city, and a label for people
// ("Kyoto, Japan"). The data is Natural Earth's 1:10m admin-0/admin-1
// boundaries and LandScan urban areas as shipped inside
// github.com/sams96/rgeo, compiled into the binary: nothing is downloaded,
// at build time or at run time.
//
// The data is costly to load: about 40 CPU-seconds, 9 GB allocated in all
// and 2.3 GB resident at the peak, 560 MB kept afterwards (Provinces10 12 s
// and 220 MB, Cities10 22 s and 335 MB; BenchmarkLoadDataset). So a
// Geocoder loads it on first use, once. A lookup then takes about 1.3 µs.
package geocode

import (
	"fmt"
	"sync"

	"github.com/sams96/rgeo"
)

// Place is what is known about a position. A field is "" when unknown.
type Place struct {
	Country     string // "Japan"
	CountryCode string // ISO 3166-1 alpha-2, "JP"
	State       string // first-level division: state, province, prefecture, department
	City        string // the urban area the position lies in
	Sublocation string // finer than a city; the shipped data has none, so always ""
	PlaceName   string // the most specific name known: City, else State, else Country
	// DisplayLabel is "City, Country" when a city is known, else
	// "State, Country", else "Country".
	DisplayLabel string
}

// Geocoder looks positions up in the shipped boundary data. The zero value
// is not usable; call New. It is safe for concurrent use.
type Geocoder struct {
	regionData, cityData func() []byte // rgeo datasets, swapped for small ones in tests

	once sync.Once
	err  error

	// rgeo's ReverseGeocode is not safe for concurrent use: its
	// s2.ContainsPointQuery keeps one iterator that every lookup moves. One
	// lookup takes microseconds, so a lock per index costs little.
	regionsMu sync.Mutex
	regions   *rgeo.Rgeo // Provinces10: admin-1 polygons plus admin-0 countries
	citiesMu  sync.Mutex
	cities    *rgeo.Rgeo // Cities10: urban-area polygons
}

// New returns a Geocoder that loads its data on first use (Load or Lookup).
func New() *Geocoder {
	return &Geocoder{regionData: rgeo.Provinces10, cityData: rgeo.Cities10}
}

// Load loads the data now rather than at the first Lookup, so that a server
// can pay the load at start-up and report a failure there. It is safe to
// call more than once and from many goroutines; all wait for the one load
// and get its error.
func (g *Geocoder) Load() error {
	g.once.Do(func() {
		regions, err := rgeo.New(g.regionData)
		if err != nil {
			g.err = fmt.Errorf("load provinces: %w", err)
			return
		}
		cities, err := rgeo.New(g.cityData)
		if err != nil {
			g.err = fmt.Errorf("load cities: %w", err)
			return
		}
		g.regions, g.cities = regions, cities
	})
	return g.err
}

// Lookup returns the place at a position in decimal degrees (WGS 84). ok is
// false when nothing is known there — at sea, on the poles' ice caps that
// belong to no country, for an invalid position, or if the data failed to
// load (Load returns why).
func (g *Geocoder) Lookup(lat, lon float64) (Place, bool) {
	if !validPosition(lat, lon) || g.Load() != nil {
		return Place{}, false
	}
	coord := []float64{lon, lat} // rgeo wants GeoJSON order

	g.regionsMu.Lock()
	region, regionErr := g.regions.ReverseGeocode(coord)
	g.regionsMu.Unlock()

	g.citiesMu.Lock()
	city, cityErr := g.cities.ReverseGeocode(coord)
	g.citiesMu.Unlock()

	// Urban areas reach over water and across borders where the country
	// polygons stop at the coast: a city alone is still an answer.
	if regionErr != nil && cityErr != nil {
		return Place{}, false
	}
	return newPlace(region, city.City), true
}

// validPosition reports whether lat and lon are finite degrees in range.
// NaN fails every comparison, so it is rejected here too.
func validPosition(lat, lon float64) bool {
	return lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180
}
