package catalog

import "time"

// Person is someone whose faces a library groups: made and named by a user,
// or an (unnamed) cluster of machine-detected faces.
type Person struct {
	ID        string
	LibraryID string
	// Name is "" for an unnamed person. Names are unique in a library under
	// NameKey.
	Name string
	// BirthDate is a calendar date, "YYYY-MM-DD", or nil.
	BirthDate  *string
	IsHidden   bool
	IsFavorite bool
	// ThumbnailFaceID is the featured face. The store keeps it on one of the
	// person's faces: the first face assigned, then the newest remaining
	// one when it leaves; nil while the person has none.
	ThumbnailFaceID *string
	// Verified is false for a machine cluster with fewer faces than the
	// clustering minimum: lists leave those out unless asked. A person made
	// or edited by a user is verified.
	Verified bool
	// FaceCount and AssetCount are maintained by the store (read only): the
	// person's faces, and the live (not trashed) assets holding at least one
	// of them.
	FaceCount  int
	AssetCount int
	// ThumbnailAsset is the asset of the featured face (read only), nil
	// while there is none.
	ThumbnailAsset *AssetRef
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// AssetRef names an asset and its media type: enough to address its
// renderings.
type AssetRef struct {
	ID        string
	MediaType MediaType
}

// birthDateLayout is the form of Person.BirthDate.
const birthDateLayout = "2006-01-02"

// CleanBirthDate checks a birth date: a calendar date YYYY-MM-DD that is not
// in the future anywhere on Earth at now (UTC+14). loc locates the field.
func CleanBirthDate(s string, now time.Time, loc ...any) (string, error) {
	d, err := time.Parse(birthDateLayout, s)
	if err != nil {
		return "", InvalidField("date_from_datetime_parsing", "birth_date must be a date YYYY-MM-DD", s, loc...)
	}
	if d.After(now.UTC().Add(14 * time.Hour)) {
		return "", InvalidField("date_past", "birth_date must not be in the future", s, loc...)
	}
	return d.Format(birthDateLayout), nil
}
