package exif_test

import (
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/ingest/exif"
)

// eiffel are the tags of a camera photo taken at the Eiffel Tower.
var eiffel = []string{
	"-Make=Canon", "-Model=EOS R5", "-LensModel=RF24-70mm F2.8 L IS USM",
	"-DateTimeOriginal=2024:05:01 10:00:00", "-SubSecTimeOriginal=123", "-OffsetTimeOriginal=+02:00",
	"-CreateDate=2024:05:01 10:00:00", "-OffsetTimeDigitized=+02:00",
	"-ModifyDate=2024:05:03 18:30:00", "-OffsetTime=+01:00",
	"-GPSLatitude=48.8584", "-GPSLatitudeRef=N", "-GPSLongitude=2.2945", "-GPSLongitudeRef=E",
	"-GPSAltitude=35", "-GPSAltitudeRef=0",
	"-Orientation#=6", "-Rating=4", "-ImageDescription=Tour Eiffel",
	"-FNumber=2.8", "-ExposureTime=1/250", "-ISO=200", "-FocalLength=35", "-ExposureCompensation=-0.3",
	"-XMP-GPano:ProjectionType=equirectangular",
}

func TestReadATaggedJPEGFillsEveryField(t *testing.T) {
	t.Parallel()
	p := newPool(t, exif.Config{})
	got, err := p.Read(t.Context(), photo(t, eiffel...), "")
	require.NoError(t, err)

	requireMetadata(t, &exif.Metadata{
		Make: ptr("Canon"), Model: ptr("EOS R5"), LensModel: ptr("RF24-70mm F2.8 L IS USM"),
		Description: ptr("Tour Eiffel"), ProjectionType: ptr("equirectangular"),
		Orientation: ptr(6), Width: ptr(48), Height: ptr(64),
		FNumber: ptr(2.8), FocalLength: ptr(35.0), ISO: ptr(200.0), ExposureTime: ptr(0.004), ExposureBias: ptr(-0.3),
		Latitude: ptr(48.8584), Longitude: ptr(2.2945), Altitude: ptr(35.0),
		Rating:            ptr(4.0),
		OriginalDatetime:  ptr("2024-05-01T10:00:00.123+02:00"),
		DigitizedDatetime: ptr("2024-05-01T10:00:00+02:00"),
		ModifiedDatetime:  ptr("2024-05-03T18:30:00+01:00"),
		Capture: &exif.Capture{
			Wall: utc(2024, 5, 1, 10, 0, 0, 123e6), Offset: ptr(7200),
			Source: "DateTimeOriginal", OffsetSource: "OffsetTimeOriginal",
		},
		Timezone: ptr("Europe/Paris"),
		MIMEType: ptr("image/jpeg"),
	}, got)

	instant, ok := got.Capture.Instant()
	require.True(t, ok)
	require.True(t, instant.Equal(time.Date(2024, 5, 1, 8, 0, 0, 123e6, time.UTC)))
}

func TestReadNamesTheEmbeddedColourProfile(t *testing.T) {
	t.Parallel()
	needTool(t, "vips")
	src := photo(t)
	withProfile := filepath.Join(filepath.Dir(src), "srgb.jpg")
	run(t, exec.CommandContext(t.Context(), "vips", "jpegsave", src, withProfile, "--profile", "srgb"))

	got, err := newPool(t, exif.Config{}).Read(t.Context(), withProfile, "")
	require.NoError(t, err)
	require.Equal(t, ptr("sRGB"), got.ProfileDescription)
}

func TestReadSwapsWidthAndHeightForQuarterTurns(t *testing.T) {
	t.Parallel()
	p := newPool(t, exif.Config{})
	cases := []struct {
		name          string
		orientation   string
		width, height int
	}{
		{"orientation 1 keeps 64×48", "1", 64, 48},
		{"orientation 3 (upside down) keeps 64×48", "3", 64, 48},
		{"orientation 6 (rotate 90° CW) gives 48×64", "6", 48, 64},
		{"orientation 8 (rotate 270° CW) gives 48×64", "8", 48, 64},
		{"orientation 5 (mirrored, rotated) gives 48×64", "5", 48, 64},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got, err := p.Read(t.Context(), photo(t, "-Orientation#="+c.orientation), "")
			require.NoError(t, err)
			require.Equal(t, c.width, *got.Width)
			require.Equal(t, c.height, *got.Height)
		})
	}
}

func TestReadChoosesTheCaptureTime(t *testing.T) {
	t.Parallel()
	p := newPool(t, exif.Config{})
	tokyo := []string{"-GPSLatitude=35.6895", "-GPSLatitudeRef=N", "-GPSLongitude=139.6917", "-GPSLongitudeRef=E"}
	cases := []struct {
		name     string
		tags     []string
		capture  *exif.Capture
		original *string
		timezone *string
	}{
		{
			name:     "without an offset, GPS in Tokyo derives +09:00",
			tags:     append([]string{"-DateTimeOriginal=2024:05:01 10:00:00"}, tokyo...),
			capture:  &exif.Capture{Wall: utc(2024, 5, 1, 10, 0, 0, 0), Offset: ptr(9 * 3600), Source: "DateTimeOriginal", OffsetSource: exif.GPSDerivedOffset},
			original: ptr("2024-05-01T10:00:00+09:00"),
			timezone: ptr("Asia/Tokyo"),
		},
		{
			name:     "without an offset or GPS the offset stays unknown",
			tags:     []string{"-DateTimeOriginal=2024:05:01 10:00:00"},
			capture:  &exif.Capture{Wall: utc(2024, 5, 1, 10, 0, 0, 0), Source: "DateTimeOriginal"},
			original: ptr("2024-05-01T10:00:00"),
		},
		{
			name: "a GPS-derived offset follows daylight saving time",
			tags: []string{"-DateTimeOriginal=2024:01:15 10:00:00",
				"-GPSLatitude=48.8584", "-GPSLatitudeRef=N", "-GPSLongitude=2.2945", "-GPSLongitudeRef=E"},
			capture:  &exif.Capture{Wall: utc(2024, 1, 15, 10, 0, 0, 0), Offset: ptr(3600), Source: "DateTimeOriginal", OffsetSource: exif.GPSDerivedOffset},
			original: ptr("2024-01-15T10:00:00+01:00"),
			timezone: ptr("Europe/Paris"),
		},
		{
			name:    "CreateDate is the fallback without DateTimeOriginal",
			tags:    []string{"-CreateDate=2024:05:02 09:30:00", "-OffsetTimeDigitized=-04:00"},
			capture: &exif.Capture{Wall: utc(2024, 5, 2, 9, 30, 0, 0), Offset: ptr(-4 * 3600), Source: "CreateDate", OffsetSource: "OffsetTimeDigitized"},
		},
		{
			name:     "a camera left on home time keeps its offset but gets no time zone",
			tags:     append([]string{"-DateTimeOriginal=2024:05:01 10:00:00", "-OffsetTimeOriginal=+02:00"}, tokyo...),
			capture:  &exif.Capture{Wall: utc(2024, 5, 1, 10, 0, 0, 0), Offset: ptr(7200), Source: "DateTimeOriginal", OffsetSource: "OffsetTimeOriginal"},
			original: ptr("2024-05-01T10:00:00+02:00"),
		},
		{
			name:     "a file without dates has no capture time but a GPS time zone",
			tags:     tokyo,
			timezone: ptr("Asia/Tokyo"),
		},
		{
			name: "a zero date is no date",
			tags: []string{"-DateTimeOriginal#=0000:00:00 00:00:00"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got, err := p.Read(t.Context(), photo(t, c.tags...), "")
			require.NoError(t, err)
			requireMetadata(t, &exif.Metadata{Capture: c.capture, OriginalDatetime: c.original, Timezone: c.timezone},
				&exif.Metadata{Capture: got.Capture, OriginalDatetime: got.OriginalDatetime, Timezone: got.Timezone})
		})
	}
}

func TestReadSignsSouthWestAndBelowSeaLevel(t *testing.T) {
	t.Parallel()
	p := newPool(t, exif.Config{})
	got, err := p.Read(t.Context(), photo(t,
		"-GPSLatitude=22.9068", "-GPSLatitudeRef=S", "-GPSLongitude=43.1729", "-GPSLongitudeRef=W",
		"-GPSAltitude=10", "-GPSAltitudeRef#=1", "-DateTimeOriginal=2024:05:01 10:00:00"), "")
	require.NoError(t, err)
	requireMetadata(t, &exif.Metadata{Latitude: ptr(-22.9068), Longitude: ptr(-43.1729), Altitude: ptr(-10.0), Timezone: ptr("America/Sao_Paulo")},
		&exif.Metadata{Latitude: got.Latitude, Longitude: got.Longitude, Altitude: got.Altitude, Timezone: got.Timezone})
	require.Equal(t, -3*3600, *got.Capture.Offset)
}

func TestReadTreatsAZeroGPSFixAsNone(t *testing.T) {
	t.Parallel()
	p := newPool(t, exif.Config{})
	got, err := p.Read(t.Context(), photo(t, "-GPSLatitude=0", "-GPSLatitudeRef=N", "-GPSLongitude=0", "-GPSLongitudeRef=E", "-GPSAltitude=0"), "")
	require.NoError(t, err)
	require.Nil(t, got.Latitude)
	require.Nil(t, got.Longitude)
	require.Nil(t, got.Altitude)
	require.Nil(t, got.Timezone)
}

func TestReadDropsCameraPlaceholderDescriptions(t *testing.T) {
	t.Parallel()
	p := newPool(t, exif.Config{})
	got, err := p.Read(t.Context(), photo(t, "-ImageDescription=OLYMPUS DIGITAL CAMERA         "), "")
	require.NoError(t, err)
	require.Nil(t, got.Description)
}
