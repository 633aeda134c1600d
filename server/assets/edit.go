package assets

import (
	"context"
	"math"
	"slices"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/tasks"
)

// Change is one asset's metadata edit (a bulk-update item's `change`). An
// unset field stays; a field set to null clears the user's value, so the
// file's own shows again.
type Change struct {
	Description      catalog.Patch[string]
	Latitude         catalog.Patch[float64]
	Longitude        catalog.Patch[float64]
	OriginalDatetime catalog.Patch[string]
	Rating           catalog.Patch[int]
}

// Update is one item of a bulk update.
type Update struct {
	ID     string
	Change Change
}

// Bulk-update batches hold 1 to 200 items (spec "Limits").
const maxBulkUpdates = 200

// BulkUpdate applies every change atomically: one invalid item, unknown id
// or asset outside the caller's reach rejects the batch and writes nothing.
func (s *Service) BulkUpdate(ctx context.Context, p *catalog.Principal, updates []Update) error {
	if len(updates) == 0 || len(updates) > maxBulkUpdates {
		return &catalog.ValidationError{Fields: []catalog.FieldError{{Loc: []any{"body", "updates"},
			Msg: "updates must hold 1 to 200 items", Type: "value_error", Ctx: map[string]any{"min_length": 1, "max_length": maxBulkUpdates}}}}
	}
	for i, u := range updates {
		if err := validateChange(u.Change, "body", "updates", i, "change"); err != nil {
			return err
		}
	}
	ids := make([]string, len(updates))
	for i, u := range updates {
		ids[i] = u.ID
	}
	return s.store.InLibraryTx(ctx, s.assetsLibrary(ctx, ids), func(r store.Repos) error {
		list, err := s.forEach(ctx, r, p, ids, needWrite, "editing", func(i int) []any {
			return []any{"body", "updates", i, "id"}
		})
		if err != nil {
			return err
		}
		byID := make(map[string]*catalog.Asset, len(list))
		for _, a := range list {
			byID[a.ID] = a
		}
		for _, u := range updates {
			if err := s.apply(ctx, r, byID[u.ID], u.Change); err != nil {
				return err
			}
		}
		return nil
	})
}

// Patch applies one change to one asset and returns it.
func (s *Service) Patch(ctx context.Context, p *catalog.Principal, id string, ch Change) (*catalog.Asset, error) {
	if err := validateChange(ch, "body"); err != nil {
		return nil, err
	}
	var a *catalog.Asset
	err := s.store.InLibraryTx(ctx, s.assetsLibrary(ctx, []string{id}), func(r store.Repos) error {
		var err error
		if a, _, err = s.asset(ctx, r, p, id, needWrite, "editing"); err != nil {
			return err
		}
		return s.apply(ctx, r, a, ch)
	})
	return a, err
}

// apply writes a change to the user-edit layer and the asset's event.
func (s *Service) apply(ctx context.Context, r store.Repos, a *catalog.Asset, ch Change) error {
	u := &a.UserMeta
	if ch.Description.Set {
		u.Description = ch.Description.Value
	}
	if ch.Latitude.Set {
		u.Latitude, u.Longitude = ch.Latitude.Value, ch.Longitude.Value
	}
	if ch.Rating.Set {
		u.Rating = nil
		if ch.Rating.Value != nil {
			v := float64(*ch.Rating.Value)
			u.Rating = &v
		}
	}
	if ch.OriginalDatetime.Set {
		u.OriginalDatetime = nil
		if ch.OriginalDatetime.Value != nil {
			c, _ := catalog.ParseCaptureTime(*ch.OriginalDatetime.Value) // validated before
			text := c.String()
			u.OriginalDatetime = &text
		}
		a.Capture = captureOf(a)
	}
	a.UpdatedAt = s.now().UTC()
	if err := r.Assets().Update(ctx, a); err != nil {
		return err
	}
	if ch.Latitude.Set {
		// The place follows the position: name it again.
		if err := tasks.Enqueue(ctx, r, tasks.KindGeocode, a.ID, a.LibraryID, a.UpdatedAt); err != nil {
			return err
		}
	}
	return event(ctx, r, "asset.updated", a, map[string]any{"fields": changedFields(ch)}, a.UpdatedAt)
}

// captureOf derives the capture time from the merged metadata: the user's
// or the file's original datetime, else the file creation time.
func captureOf(a *catalog.Asset) catalog.CaptureTime {
	if m := a.Merged(); m.OriginalDatetime != nil {
		if c, err := catalog.ParseCaptureTime(*m.OriginalDatetime); err == nil {
			return c
		}
	}
	return captureFrom(a.FileCreatedAt)
}

func changedFields(ch Change) []string {
	var out []string
	for name, set := range map[string]bool{"description": ch.Description.Set, "latitude": ch.Latitude.Set,
		"longitude": ch.Longitude.Set, "original_datetime": ch.OriginalDatetime.Set, "rating": ch.Rating.Set} {
		if set {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// validateChange checks one change; loc locates the change object.
func validateChange(ch Change, loc ...any) error {
	at := func(field string) []any { return append(append([]any(nil), loc...), field) }
	if ch.Latitude.Set != ch.Longitude.Set || (ch.Latitude.Value == nil) != (ch.Longitude.Value == nil) {
		return catalog.InvalidField("value_error", "latitude and longitude are set (or cleared) together", nil, at("latitude")...)
	}
	if v := ch.Latitude.Value; v != nil && (math.IsNaN(*v) || *v < -90 || *v > 90) {
		return catalog.InvalidField("value_error", "latitude must be between -90 and 90", *v, at("latitude")...)
	}
	if v := ch.Longitude.Value; v != nil && (math.IsNaN(*v) || *v < -180 || *v > 180) {
		return catalog.InvalidField("value_error", "longitude must be between -180 and 180", *v, at("longitude")...)
	}
	if v := ch.Rating.Value; v != nil && (*v < 0 || *v > 5) {
		return catalog.InvalidField("value_error", "rating must be an integer from 0 to 5", *v, at("rating")...)
	}
	if v := ch.Description.Value; v != nil && len(*v) > 10000 {
		return catalog.InvalidField("string_too_long", "description must be at most 10000 bytes", nil, at("description")...)
	}
	if v := ch.OriginalDatetime.Value; v != nil {
		if _, err := catalog.ParseCaptureTime(*v); err != nil {
			return catalog.InvalidField("datetime_parsing", "original_datetime must be RFC 3339, with or without an offset", *v, at("original_datetime")...)
		}
	}
	if !(ch.Description.Set || ch.Latitude.Set || ch.OriginalDatetime.Set || ch.Rating.Set) {
		return catalog.InvalidField("missing", "change must set at least one field", nil, loc...)
	}
	return nil
}
