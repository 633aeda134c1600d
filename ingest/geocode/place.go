package geocode

import (
	"strings"

	"github.com/sams96/rgeo"
)

// newPlace builds a Place from rgeo's answer for the region (country and
// province; zero when at sea) and the urban area's raw name ("" when none).
func newPlace(region rgeo.Location, rawCity string) Place {
	p := Place{
		Country:     firstNonEmpty(region.Country, region.CountryLong),
		CountryCode: countryCode(region),
		State:       region.Province,
		City:        cityName(rawCity),
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
func countryCode(l rgeo.Location) string {
	if isAlpha2(l.CountryCode2) {
		return l.CountryCode2
	}
	if prefix, _, ok := strings.Cut(l.ProvinceCode, "-"); ok && isAlpha2(prefix) {
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
// name ("Sydney1", "Sydney2", "Aberdeen3"; rgeo strips only a final "2")
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
