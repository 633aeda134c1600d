package pipeline

import (
	"context"
	"errors"
	"fmt"

	"github.com/photoctl/photoctl/server/catalog"
)

// Geocode names the place at the asset's position — the merged one, so a
// position the user set wins over the file's — in the reverse-geocoding
// layer: country, country_code, state, city, sublocation, place_name and
// display_label. Without a position, or where nothing is known (at sea, at
// 0,0), the layer is cleared. The geocoder works offline. Idempotent.
func (p *Pipeline) Geocode(ctx context.Context, assetID string) error {
	return p.settle(ctx, assetID, p.geocode(ctx, assetID))
}

// errPositionMoving fails a geocode whose asset's position changed under
// it three times in a row; the task's retry will settle it.
var errPositionMoving = errors.New("geocode: the asset's position keeps changing")

func (p *Pipeline) geocode(ctx context.Context, id string) error {
	// A geocoder without its data would find nothing anywhere and clear
	// every place: fail (and retry) instead.
	if err := p.d.Geocoder.Load(); err != nil {
		return fmt.Errorf("geocode: %w", err)
	}
	// The lookup runs outside the write transaction; the transaction
	// checks that the position it looked up is still the asset's.
	for range 3 {
		a, err := p.asset(ctx, id)
		if err != nil {
			return err
		}
		pos := positionOf(a.Merged())
		layer := p.placeAt(pos)
		moved := false
		err = p.update(ctx, id, "geocode", func(a *catalog.Asset) {
			if moved = positionOf(a.Merged()) != pos; !moved {
				a.GeoMeta = layer
			}
		})
		if err != nil || !moved {
			return err
		}
	}
	return errPositionMoving
}

// position is a latitude and longitude, or none.
type position struct {
	lat, lon float64
	known    bool
}

func positionOf(m catalog.Metadata) position {
	if m.Latitude == nil || m.Longitude == nil {
		return position{}
	}
	return position{lat: *m.Latitude, lon: *m.Longitude, known: true}
}

// placeAt looks up the place at pos: the geocoding layer, empty when there
// is no position or nothing is known there.
func (p *Pipeline) placeAt(pos position) catalog.Metadata {
	if !pos.known {
		return catalog.Metadata{}
	}
	place, ok := p.d.Geocoder.Lookup(pos.lat, pos.lon)
	if !ok {
		return catalog.Metadata{}
	}
	text := func(s string) *string {
		if s == "" {
			return nil
		}
		return &s
	}
	return catalog.Metadata{Country: text(place.Country), CountryCode: text(place.CountryCode),
		State: text(place.State), City: text(place.City), Sublocation: text(place.Sublocation),
		PlaceName: text(place.PlaceName), DisplayLabel: text(place.DisplayLabel)}
}
