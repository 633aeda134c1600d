package geocode

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sync"

	"github.com/photoctl/photoctl/ingest/geocode/internal/towns"
)

// openTowns unzips and decodes the town list.
func openTowns(gz []byte) (*towns.List, error) {
	raw, err := gunzip(gz)
	if err != nil {
		return nil, fmt.Errorf("load towns: %w", err)
	}
	list, err := towns.Decode(raw)
	if err != nil {
		return nil, fmt.Errorf("load towns: %w", err)
	}
	return list, nil
}

// withTown names the town at a position in p (City, and so PlaceName and
// DisplayLabel), where admin says whether the admin areas knew the
// position.
//
// The town is the one whose reach the position lies deepest in
// (towns.List.Nearest: 5 km for a village of 1,000 up to 50 km for a
// city of 6 million or more), among the towns of the country the admin
// areas give there, so that near a border the town is never across it
// (towngen gave each town the admin areas' country at its centre). Where
// the admin areas give no country code (Somaliland, Northern Cyprus) any
// town counts. At sea, beyond the admin areas' coastline (a harbour, a
// ferry, a beach the 1:10m coast misses), a town in reach names the place
// and its country; farther out there is still nothing. Without a town the
// urban area, if any, stays the city.
func withTown(p Place, admin bool, list *towns.List, lat, lon float64) (Place, bool) {
	t, ok := list.Nearest(lat, lon, p.CountryCode)
	if !ok {
		return p, admin
	}
	p.City = t.Name
	if p.Country == "" && p.CountryCode == "" {
		p.CountryCode = t.Country
		p.Country = countryName(list, t.Country)
	}
	p.PlaceName = firstNonEmpty(p.City, p.State, p.Country)
	p.DisplayLabel = displayLabel(p)
	return p, true
}

// countryName returns the admin areas' name for a country code.
func countryName(list *towns.List, code string) string {
	for _, c := range list.Countries() {
		if c.Code == code {
			return c.Name
		}
	}
	return ""
}

// DataVersion names the embedded data: the first 16 hex digits of the
// SHA-256 of the admin-area index and the town list. It changes when either
// is regenerated, which is when places already stored may be named
// differently (the server re-geocodes then).
func DataVersion() string { return dataVersion() }

var dataVersion = sync.OnceValue(func() string {
	h := sha256.New()
	h.Write(placesIndex)
	h.Write(townsIndex)
	return hex.EncodeToString(h.Sum(nil))[:16]
})
