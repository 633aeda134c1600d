package catalog

import "time"

// PrefixTag is the identifier prefix of tags.
const PrefixTag = "tag_"

// Tag is a label of a library that its assets may carry, such as the
// tags Immich clients set ("Travel/2024"). Its Value is the whole label,
// unique in its library; photoctl keeps no hierarchy of its own: a value
// with slashes is one tag.
type Tag struct {
	ID        string
	LibraryID string
	Value     string
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Name is the last segment of the tag's value (Immich's tag name).
func (t *Tag) Name() string {
	for i := len(t.Value) - 1; i >= 0; i-- {
		if t.Value[i] == '/' {
			return t.Value[i+1:]
		}
	}
	return t.Value
}
