package exif_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/ingest/exif"
)

// The JPEGs in testdata come from github.com/rwcarlsen/goexif (see
// testdata/README.md).

func TestReadAnIPhone4SPhoto(t *testing.T) {
	t.Parallel()
	got, err := newPool(t, exif.Config{}).Read(t.Context(), "testdata/has-lens-info.jpg", "")
	require.NoError(t, err)

	// No offset is recorded; Stockholm in September is CEST. The GPS
	// timestamp (13:03:42 UTC) agrees.
	requireMetadata(t, &exif.Metadata{
		Make: ptr("Apple"), Model: ptr("iPhone 4S"), LensModel: ptr("iPhone 4S back camera 4.28mm f/2.4"),
		ProjectionType: ptr("equirectangular"),
		Orientation:    ptr(6), Width: ptr(102), Height: ptr(205),
		FNumber: ptr(2.4), FocalLength: ptr(4.28), ISO: ptr(50.0), ExposureTime: ptr(0.0007788161994),
		Latitude: ptr(59.3325472222222), Longitude: ptr(18.0649416666667), Altitude: ptr(29.0),
		OriginalDatetime:  ptr("2014-09-01T15:03:47.88+02:00"),
		DigitizedDatetime: ptr("2014-09-01T15:03:47.88+02:00"),
		ModifiedDatetime:  ptr("2014-09-01T15:03:47+02:00"),
		Capture: &exif.Capture{Wall: utc(2014, 9, 1, 15, 3, 47, 880e6), Offset: ptr(7200),
			Source: "DateTimeOriginal", OffsetSource: exif.GPSDerivedOffset},
		Timezone: ptr("Europe/Stockholm"),
		MIMEType: ptr("image/jpeg"),
	}, got)
}

func TestReadAnHTCOneM8Panorama(t *testing.T) {
	t.Parallel()
	got, err := newPool(t, exif.Config{}).Read(t.Context(), "testdata/geodegrees_as_string.jpg", "")
	require.NoError(t, err)

	require.Nil(t, got.Make, "the camera wrote an empty Make")
	require.Equal(t, ptr("HTC One_M8"), got.Model)
	require.Equal(t, ptr("equirectangular"), got.ProjectionType)
	require.Nil(t, got.ExposureTime, "an ExposureTime of 0 means not recorded")
	require.Equal(t, ptr(125.0), got.ISO)
	require.Equal(t, ptr("2014-04-26T19:09:19+02:00"), got.OriginalDatetime)
	require.Equal(t, ptr("Europe/Berlin"), got.Timezone)
}

func TestReadGIMPOrientationSamples(t *testing.T) {
	t.Parallel()
	p := newPool(t, exif.Config{})
	for file, orientation := range map[string]int{"testdata/f6-exif.jpg": 6, "testdata/f8-exif.jpg": 8} {
		got, err := p.Read(t.Context(), file, "")
		require.NoError(t, err)
		require.Equal(t, ptr(orientation), got.Orientation, file)
		require.Equal(t, []int{40, 80}, []int{*got.Width, *got.Height}, "%s is stored 80×40", file)
	}
}

func TestReadATruncatedCanonJPEGGivesFileFactsOnly(t *testing.T) {
	t.Parallel()
	// exiftool warns "JPEG format error" and reads no EXIF: not an error.
	got, err := newPool(t, exif.Config{}).Read(t.Context(), "testdata/2012-12-21-11-15-19-sep-IMG_0001.jpg", "")
	require.NoError(t, err)
	requireMetadata(t, &exif.Metadata{MIMEType: ptr("image/jpeg")}, got)
}
