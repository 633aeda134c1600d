// Package placeattr names the attributes that the place index keeps for
// every shape, in their order: the strings rgeo's Location carried, which
// internal/gen writes and ingest/geocode reads.
package placeattr

// The attributes of a shape. Admin-1 regions carry Country (from their
// "admin" property), Province and ProvinceCode; admin-0 countries Country,
// CountryLong and CountryCode2; urban areas City. The rest are "".
const (
	Country      = iota // the country's common name ("France")
	CountryLong         // its formal name ("French Republic")
	CountryCode2        // ISO 3166-1 alpha-2 as Natural Earth has it: "-99" and "CN-TW" occur
	Province            // the first-level division ("Paris", "Kyōto")
	ProvinceCode        // its ISO 3166-2 code ("FR-75")
	City                // the urban area's name as shipped: may end in a number or carry mojibake
	Count               // how many there are
)
