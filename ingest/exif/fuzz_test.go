package exif

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzParseTags feeds parse what exiftool could report for a hostile file
// and its XMP sidecar (exiftool parses the XMP; parse reads its JSON): any
// JSON objects. Whatever it keeps must be in range, so it stores and
// serialises (no NaN, no overflowed size, coordinates on the globe).
func FuzzParseTags(f *testing.F) {
	f.Add([]byte(`{"Make":"Canon","ImageWidth":6000,"ImageHeight":4000,"Orientation":6,"DateTimeOriginal":"2024:05:01 10:00:00","OffsetTimeOriginal":"+02:00"}`),
		[]byte(`{"Rating":5,"Description":"from the sidecar","GPSLatitude":"48.85 N","GPSLongitude":"2.35 E"}`))
	f.Add([]byte(`{"ImageWidth":1e300,"ImageHeight":-1,"ExifImageWidth":"1e400","Rotation":90,"MIMEType":"video/mp4"}`), []byte(`null`))
	f.Add([]byte(`{"DateTimeOriginal":"9999:12:31 23:59:59+14:00","GPSLatitude":1e308,"GPSLongitude":-1e308,"GPSAltitude":"1/0"}`),
		[]byte(`{"DateTimeOriginal":"0000:00:00 00:00:00","ExposureTime":-1,"FNumber":"NaN","ISO":"Inf","Rating":99}`))
	f.Add([]byte(`{"ImageWidth":1e300,"ImageHeight":10,"Orientation":6}`), []byte(`{"ImageWidth":1}`))
	f.Add([]byte(`{"ImageWidth":"60000","ImageHeight":"60000","Orientation":"8","GPSLatitude":"-90","GPSLatitudeRef":"S"}`), []byte(`{}`))
	f.Fuzz(func(t *testing.T, fileJSON, sidecarJSON []byte) {
		var file, sidecar map[string]any
		if json.Unmarshal(fileJSON, &file) != nil || file == nil {
			return
		}
		_ = json.Unmarshal(sidecarJSON, &sidecar)
		m := parse(file, sidecar)
		_, err := json.Marshal(m)
		require.NoError(t, err)
		if m.Width != nil || m.Height != nil {
			require.True(t, m.Width != nil && m.Height != nil && *m.Width > 0 && *m.Height > 0, "size %v×%v", m.Width, m.Height)
		}
		if m.Latitude != nil {
			require.NotNil(t, m.Longitude)
			require.LessOrEqual(t, math.Abs(*m.Latitude), 90.0)
			require.LessOrEqual(t, math.Abs(*m.Longitude), 180.0)
		}
		if m.Orientation != nil {
			require.True(t, *m.Orientation >= 1 && *m.Orientation <= 8)
		}
		if m.Rating != nil {
			require.True(t, *m.Rating >= -1 && *m.Rating <= 5)
		}
		for _, v := range []*float64{m.FNumber, m.FocalLength, m.ISO, m.ExposureTime, m.FPS, m.Duration, m.Altitude, m.ExposureBias} {
			if v != nil {
				require.False(t, math.IsNaN(*v) || math.IsInf(*v, 0))
			}
		}
	})
}

// FuzzParseDateTime checks exiftool date strings (file tags and sidecar
// xmp:DateCreated alike): accepted dates are real calendar dates with an
// offset inside ±14h and print back to what parses to the same reading.
func FuzzParseDateTime(f *testing.F) {
	for _, s := range []string{"2024:05:01 10:00:00", "2024:05:01 10:00:00.123+02:00", "2024-05-01T10:00:00Z",
		"0000:00:00 00:00:00", "2024:02:30 10:00:00", "9999:12:31 23:59:59-14:00", "2024:05:01 10:00:00+99:99", "    "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		wall, off, ok := parseDateTime(s)
		if !ok {
			return
		}
		require.Equal(t, wall.Location(), wall.UTC().Location())
		if off != nil {
			require.LessOrEqual(t, *off, 14*3600)
			require.GreaterOrEqual(t, *off, -14*3600)
		}
		w2, off2, ok := parseDateTime(formatDateTime(wall, off))
		require.True(t, ok, "%q formats as %q", s, formatDateTime(wall, off))
		require.True(t, wall.Equal(w2))
		require.Equal(t, off == nil, off2 == nil)
	})
}
