package convert

import (
	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/catalog"
)

// Person converts a person, with the URLs of its thumbnail face and the
// asset that face is in.
func Person(p *catalog.Person) api.Person {
	out := api.Person{ID: p.ID, LibraryID: p.LibraryID, BirthDate: p.BirthDate, IsHidden: p.IsHidden,
		IsFavorite: p.IsFavorite, AssetCount: p.AssetCount, ThumbnailFaceID: p.ThumbnailFaceID,
		CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt}
	if p.Name != "" {
		out.Name = &p.Name
	}
	if p.ThumbnailFaceID != nil {
		u := faceThumbnailURL(*p.ThumbnailFaceID)
		out.ThumbnailFaceURL = &u
	}
	if a := p.ThumbnailAsset; a != nil {
		urls := assetURLs(&catalog.Asset{ID: a.ID, MediaType: a.MediaType}, nil)
		out.AssetURLs = &urls
	}
	return out
}

// Face converts a face, with the URLs of its thumbnail and of its asset.
func Face(f *catalog.Face) api.Face {
	return api.Face{ID: f.ID, AssetID: f.AssetID, LibraryID: f.LibraryID, PersonID: f.PersonID,
		BoundingBox: api.BoundingBox{X: f.Box.X, Y: f.Box.Y, Width: f.Box.Width, Height: f.Box.Height},
		Source:      string(f.Source), Confidence: f.Confidence, TimestampMS: f.TimestampMS,
		ThumbnailURL: faceThumbnailURL(f.ID), CreatedAt: f.CreatedAt, UpdatedAt: f.UpdatedAt,
		AssetURLs: assetURLs(&catalog.Asset{ID: f.AssetID, MediaType: f.AssetMediaType}, nil)}
}

// faceThumbnailURL is where a face's thumbnail is served.
func faceThumbnailURL(faceID string) string { return "/api/faces/" + faceID + "/thumbnail" }

// FromBox reads a request's bounding box, reporting each missing field;
// the values themselves are checked by catalog.BoundingBox.Validate.
func FromBox(b *api.BoundingBoxInput) (catalog.BoundingBox, error) {
	if b == nil {
		return catalog.BoundingBox{}, catalog.InvalidField("missing", "bounding_box is required", nil, "body", "bounding_box")
	}
	var missing []catalog.FieldError
	for _, f := range []struct {
		name string
		v    *float64
	}{{"x", b.X}, {"y", b.Y}, {"width", b.Width}, {"height", b.Height}} {
		if f.v == nil {
			missing = append(missing, catalog.FieldError{Loc: []any{"body", "bounding_box", f.name},
				Msg: f.name + " is required", Type: "missing"})
		}
	}
	if len(missing) > 0 {
		return catalog.BoundingBox{}, &catalog.ValidationError{Fields: missing}
	}
	return catalog.BoundingBox{X: *b.X, Y: *b.Y, Width: *b.Width, Height: *b.Height}, nil
}
