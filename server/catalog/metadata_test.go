package catalog

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"
)

// Every field of Metadata takes part in the merge, and the later layer wins:
// this fails when a field is added to Metadata but not to overlay.
func TestMergeMetadataCoversEveryField(t *testing.T) {
	typ := reflect.TypeFor[Metadata]()
	for i := range typ.NumField() {
		f := typ.Field(i)
		t.Run(f.Name, func(t *testing.T) {
			layer := func() (Metadata, reflect.Value) {
				var m Metadata
				v := reflect.New(f.Type.Elem())
				reflect.ValueOf(&m).Elem().Field(i).Set(v)
				return m, v
			}
			first, _ := layer()
			second, want := layer()
			got := reflect.ValueOf(MergeMetadata(first, second, Metadata{})).Field(i)
			require.Equal(t, want.Pointer(), got.Pointer(), "%s: the later layer's value must win", f.Name)
			got = reflect.ValueOf(MergeMetadata(Metadata{}, first)).Field(i)
			require.False(t, got.IsNil(), "%s is not merged", f.Name)
		})
	}
}

func TestMergeMetadataDoesNotAllocate(t *testing.T) {
	s, c := "Canon", 45.5
	a := Asset{FileMeta: Metadata{Make: &s, Latitude: &c}, GeoMeta: Metadata{City: &s}, UserMeta: Metadata{Rating: &c}}
	var m Metadata
	require.Zero(t, testing.AllocsPerRun(100, func() { m = a.Merged() }))
	require.Equal(t, &s, m.Make)
	require.Equal(t, &s, m.City)
	require.Equal(t, &c, m.Rating)
}
