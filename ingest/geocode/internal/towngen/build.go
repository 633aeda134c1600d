package main

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/photoctl/photoctl/ingest/geocode/internal/placeattr"
	"github.com/photoctl/photoctl/ingest/geocode/internal/polyindex"
	"github.com/photoctl/photoctl/ingest/geocode/internal/towns"
)

// skipped are the GeoNames feature codes left out: sections of a place
// (PPLX: neighbourhoods, which would name a position in New York
// "Financial District" rather than the city), and places that are no more
// (historical, abandoned, destroyed; a historical capital).
var skipped = map[string]bool{"PPLX": true, "PPLH": true, "PPLQ": true, "PPLW": true, "PPLCH": true}

// admin answers what country the admin areas give at a position.
type admin struct{ index *polyindex.Index }

func openAdmin(path string) (admin, error) {
	gz, err := os.ReadFile(path)
	if err != nil {
		return admin{}, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return admin{}, fmt.Errorf("read %s: %w", path, err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return admin{}, fmt.Errorf("read %s: %w", path, err)
	}
	index, err := polyindex.Open(raw)
	if err != nil {
		return admin{}, fmt.Errorf("read %s: %w", path, err)
	}
	return admin{index}, nil
}

// country returns the code and name of the country at a position in
// 10⁻⁵ degrees, as ingest/geocode's newPlace makes them, or "" for none.
func (a admin) country(lat, lon int64) (code, name string) {
	var buf [8]int32
	var code2, province string
	for _, s := range a.index.Contains(polyindex.FromDegrees(float64(lon)/towns.Scale, float64(lat)/towns.Scale), buf[:0]) {
		at := a.index.Attrs(int(s))
		name = cmp.Or(name, at[placeattr.Country], at[placeattr.CountryLong])
		code2 = cmp.Or(code2, at[placeattr.CountryCode2])
		province = cmp.Or(province, at[placeattr.ProvinceCode])
	}
	if isAlpha2(code2) {
		return code2, name
	}
	if prefix, _, ok := strings.Cut(province, "-"); ok && isAlpha2(prefix) {
		return prefix, name
	}
	return "", name
}

func isAlpha2(s string) bool {
	return len(s) == 2 && 'A' <= s[0] && s[0] <= 'Z' && 'A' <= s[1] && s[1] <= 'Z'
}

// buildTowns turns the cities into towns, each with the country code the
// admin areas give at its position, so that the geocoder, which keeps
// only towns of the country it finds at a photo's position, compares like
// with like (GeoNames gives Réunion's towns RE, Natural Earth makes
// Réunion part of France). A town the admin areas put at sea (a coastal
// centre beyond the 1:10m coastline) takes the code most towns of its
// GeoNames country got. The names of the countries are the admin areas'.
func buildTowns(cities []city, a admin) (list []towns.Town, countries []towns.Country, dropped int) {
	type found struct{ code, name string }
	at := make([]found, len(cities))
	votes := map[string]map[string]int{} // GeoNames code → admin code → towns
	names := map[string]map[string]int{} // admin code → name → towns
	for i, c := range cities {
		if skipped[c.featureCode] {
			continue
		}
		code, name := a.country(c.lat, c.lon)
		at[i] = found{code, name}
		if code == "" {
			continue
		}
		if votes[c.country] == nil {
			votes[c.country] = map[string]int{}
		}
		votes[c.country][code]++
		if names[code] == nil {
			names[code] = map[string]int{}
		}
		names[code][name]++
	}
	for i, c := range cities {
		if skipped[c.featureCode] {
			dropped++
			continue
		}
		code := cmp.Or(at[i].code, mostVotes(votes[c.country]), c.country)
		if names[code] == nil {
			names[code] = map[string]int{"": 0} // a country only GeoNames knows: no name
		}
		list = append(list, towns.Town{Lat: int32(c.lat), Lon: int32(c.lon), Population: uint32(min(c.population, 1<<32-1)),
			Name: strings.TrimSpace(c.name), Country: code})
	}
	for code, n := range names {
		countries = append(countries, towns.Country{Code: code, Name: mostVotes(n)})
	}
	slices.SortFunc(countries, func(a, b towns.Country) int { return cmp.Compare(a.Code, b.Code) })
	return list, countries, dropped
}

// mostVotes returns the key with the most votes, the least key on a tie,
// "" for none.
func mostVotes(v map[string]int) string {
	best, n := "", -1
	for k, c := range v {
		if c > n || c == n && k < best {
			best, n = k, c
		}
	}
	return best
}
