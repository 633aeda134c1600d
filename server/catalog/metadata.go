package catalog

import "reflect"

// Merged returns the metadata the API shows: each field from the user's
// edits when set, else from reverse geocoding, else from the file.
func (a *Asset) Merged() Metadata {
	return MergeMetadata(a.FileMeta, a.GeoMeta, a.UserMeta)
}

// MergeMetadata overlays layers in order: a later layer's non-nil field
// wins over an earlier one's.
func MergeMetadata(layers ...Metadata) Metadata {
	var out Metadata
	dst := reflect.ValueOf(&out).Elem()
	for i := range layers {
		// Through a pointer: reflect.ValueOf(layer) would copy the whole
		// struct to the heap, for every layer of every asset listed.
		src := reflect.ValueOf(&layers[i]).Elem()
		for i := range src.NumField() {
			if f := src.Field(i); !f.IsNil() {
				dst.Field(i).Set(f)
			}
		}
	}
	return out
}
