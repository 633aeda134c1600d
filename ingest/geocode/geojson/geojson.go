// Package geojson reads the gzipped GeoJSON feature collections of rgeo's
// Natural Earth datasets into each feature's properties and rings. The
// geocoder's index generator (ingest/geocode/internal/gen) and the web
// gallery's world outline (server/web/internal/worldgen) read the same
// files through it.
package geojson

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
)

// Feature is one feature of a collection.
type Feature struct {
	Properties map[string]any
	// Rings are the rings of every polygon of the feature, in the file's
	// order, each a list of [longitude, latitude].
	Rings [][][2]float64
}

// Read decodes a gzipped feature collection whose geometries are polygons
// and multi-polygons, feature by feature in the file's order.
func Read(gz []byte) ([]Feature, error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, err
	}
	var fc struct {
		Features []struct {
			Properties map[string]any `json:"properties"`
			Geometry   struct {
				Type        string          `json:"type"`
				Coordinates json.RawMessage `json:"coordinates"`
			} `json:"geometry"`
		} `json:"features"`
	}
	if err := json.NewDecoder(zr).Decode(&fc); err != nil {
		return nil, err
	}
	out := make([]Feature, 0, len(fc.Features))
	for i, f := range fc.Features {
		var polygons [][][][2]float64
		switch f.Geometry.Type {
		case "Polygon":
			var p [][][2]float64
			err = json.Unmarshal(f.Geometry.Coordinates, &p)
			polygons = [][][][2]float64{p}
		case "MultiPolygon":
			err = json.Unmarshal(f.Geometry.Coordinates, &polygons)
		default:
			err = fmt.Errorf("geometry %q", f.Geometry.Type)
		}
		if err != nil {
			return nil, fmt.Errorf("feature %d: %w", i, err)
		}
		feat := Feature{Properties: f.Properties}
		for _, p := range polygons {
			feat.Rings = append(feat.Rings, p...)
		}
		out = append(out, feat)
	}
	return out, nil
}
