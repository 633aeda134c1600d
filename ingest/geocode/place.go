package geocode

import (
	"strings"

	"github.com/photoctl/photoctl/ingest/geocode/internal/placeattr"
)

// record is what the shapes containing a position say, as rgeo's Location
// said it: raw names and codes, "" when none says.
type record struct {
	country, countryLong, countryCode2 string
	province, provinceCode             string
	city                               string // the urban area's raw name
}

// fill sets each field of r that is still "" from a shape's attributes
// (placeattr order).
func (r *record) fill(a []string) {
	r.country = firstNonEmpty(r.country, a[placeattr.Country])
	r.countryLong = firstNonEmpty(r.countryLong, a[placeattr.CountryLong])
	r.countryCode2 = firstNonEmpty(r.countryCode2, a[placeattr.CountryCode2])
	r.province = firstNonEmpty(r.province, a[placeattr.Province])
	r.provinceCode = firstNonEmpty(r.provinceCode, a[placeattr.ProvinceCode])
	r.city = firstNonEmpty(r.city, a[placeattr.City])
}

// newPlace builds a Place from what the shapes say about a position.
func newPlace(r record) Place {
	p := Place{
		Country:     firstNonEmpty(r.country, r.countryLong),
		CountryCode: countryCode(r.countryCode2, r.provinceCode),
		State:       r.province,
		City:        cityName(r.city),
	}
	p.PlaceName = firstNonEmpty(p.City, p.State, p.Country)
	p.DisplayLabel = displayLabel(p)
	return p
}

// displayLabel is "City, Country", else "State, Country", else "Country",
// without repeating a name ("Singapore", not "Singapore, Singapore") and
// without a dangling comma when the country is unknown.
func displayLabel(p Place) string {
	local := firstNonEmpty(p.City, p.State)
	switch {
	case local == "" || local == p.Country:
		return p.Country
	case p.Country == "":
		return local
	default:
		return local + ", " + p.Country
	}
}

// countryCode returns the ISO 3166-1 alpha-2 code. Natural Earth gives
// "-99" for France, Norway and Kosovo (their overseas parts or status make
// the code ambiguous to it) and "CN-TW" for Taiwan; the province's ISO
// 3166-2 code ("FR-75", "TW-TPE") starts with the right one, so it decides
// then. Disputed areas without either (Somaliland, Northern Cyprus) get "".
func countryCode(code2, provinceCode string) string {
	if isAlpha2(code2) {
		return code2
	}
	if prefix, _, ok := strings.Cut(provinceCode, "-"); ok && isAlpha2(prefix) {
		return prefix
	}
	return ""
}

// isAlpha2 reports whether s is two upper-case ASCII letters.
func isAlpha2(s string) bool {
	return len(s) == 2 && 'A' <= s[0] && s[0] <= 'Z' && 'A' <= s[1] && s[1] <= 'Z'
}

// mojibake maps the mis-encoded sequences found in the shipped urban-area
// names (all twelve non-ASCII names: "DÌùsseldorf", "ZÌùrich", "Ciudad
// JuÌÁrez", "St. John‰Ûªs", …) back to what they stand for.
var mojibake = strings.NewReplacer(
	"Ìù", "ü",
	"ÌÁ", "á",
	"Ì©", "é",
	"ÌÈ", "û",
	"‰Ûª", "’",
)

// cityName cleans an urban-area name: the data numbers areas that share a
// name ("Sydney1", "Sydney2", "Aberdeen3"; internal/gen, like rgeo, strips
// only a final "2")
// and carries a few mis-encoded letters.
func cityName(raw string) string {
	name := strings.TrimRight(raw, "0123456789")
	return strings.TrimSpace(mojibake.Replace(name))
}

// firstNonEmpty returns the first of names that is not "".
func firstNonEmpty(names ...string) string {
	for _, n := range names {
		if n != "" {
			return n
		}
	}
	return ""
}
