package main

import (
	"strings"

	"github.com/photoctl/photoctl/ingest/geocode/geojson"
	"github.com/photoctl/photoctl/ingest/geocode/internal/placeattr"
	"github.com/photoctl/photoctl/ingest/geocode/internal/polyindex"
)

// readShapes reads one of rgeo's datasets (gzipped GeoJSON) into shapes,
// feature by feature in the file's order, and returns each one's Natural
// Earth feature class ("Admin-0 country", "Admin-1 states provinces", …).
func readShapes(gz []byte) ([]polyindex.Shape, []string, error) {
	features, err := geojson.Read(gz)
	if err != nil {
		return nil, nil, err
	}
	shapes := make([]polyindex.Shape, 0, len(features))
	classes := make([]string, 0, len(features))
	for _, f := range features {
		s := polyindex.Shape{Attrs: attributes(f.Properties)}
		for _, r := range f.Rings {
			ring := make([]polyindex.Point, len(r))
			for j, c := range r {
				ring[j] = polyindex.Vertex(c[0], c[1])
			}
			s.Rings = append(s.Rings, ring)
		}
		shapes = append(shapes, s)
		classes = append(classes, property(f.Properties, "featurecla"))
	}
	return shapes, classes, nil
}

// attributes picks the properties the way rgeo's getLocationStrings does,
// so that the index answers what rgeo answered.
func attributes(p map[string]any) []string {
	a := make([]string, placeattr.Count)
	a[placeattr.Country] = property(p, "ADMIN", "admin")
	a[placeattr.CountryLong] = property(p, "FORMAL_EN")
	a[placeattr.CountryCode2] = property(p, "ISO_A2")
	a[placeattr.Province] = property(p, "name")
	a[placeattr.ProvinceCode] = property(p, "iso_3166_2")
	a[placeattr.City] = strings.TrimSuffix(property(p, "name_conve"), "2")
	return a
}

// property returns the first of keys whose value is a string, else "".
func property(p map[string]any, keys ...string) string {
	for _, k := range keys {
		if s, ok := p[k].(string); ok {
			return s
		}
	}
	return ""
}
