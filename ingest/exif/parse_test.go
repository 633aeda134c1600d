package exif

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/require"
)

// fixture loads exiftool's JSON for one file, decoded as go-exiftool
// decodes it (encoding/json into map[string]any).
func fixture(t *testing.T, name string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	var objs []map[string]any
	require.NoError(t, json.Unmarshal(b, &objs))
	require.Len(t, objs, 1)
	return objs[0]
}

func ptr[T any](v T) *T { return &v }

func TestParseExiftoolFixtures(t *testing.T) {
	cases := []struct {
		fixture string
		want    *Metadata
	}{
		{"iphone-4s.json", &Metadata{
			Make: ptr("Apple"), Model: ptr("iPhone 4S"), LensModel: ptr("iPhone 4S back camera 4.28mm f/2.4"),
			ProjectionType: ptr("equirectangular"),
			Orientation:    ptr(6), Width: ptr(102), Height: ptr(205),
			FNumber: ptr(2.4), FocalLength: ptr(4.28), ISO: ptr(50.0), ExposureTime: ptr(0.0007788161994),
			Latitude: ptr(59.3325472222222), Longitude: ptr(18.0649416666667), Altitude: ptr(29.0),
			OriginalDatetime:  ptr("2014-09-01T15:03:47.88+02:00"),
			DigitizedDatetime: ptr("2014-09-01T15:03:47.88+02:00"),
			ModifiedDatetime:  ptr("2014-09-01T15:03:47+02:00"),
			Capture: &Capture{Wall: time.Date(2014, 9, 1, 15, 3, 47, 880e6, time.UTC), Offset: ptr(7200),
				Source: "DateTimeOriginal", OffsetSource: GPSDerivedOffset},
			Timezone: ptr("Europe/Stockholm"),
			MIMEType: ptr("image/jpeg"),
		}},
		{"htc-one-m8-panorama.json", &Metadata{
			Model: ptr("HTC One_M8"), ProjectionType: ptr("equirectangular"),
			Width: ptr(205), Height: ptr(102),
			FNumber: ptr(2.0), FocalLength: ptr(3.0), ISO: ptr(125.0),
			Latitude: ptr(52.0138888888889), Longitude: ptr(11.0027777777778), Altitude: ptr(0.0),
			OriginalDatetime: ptr("2014-04-26T19:09:19+02:00"),
			Capture: &Capture{Wall: time.Date(2014, 4, 26, 19, 9, 19, 0, time.UTC), Offset: ptr(7200),
				Source: "DateTimeOriginal", OffsetSource: GPSDerivedOffset},
			Timezone: ptr("Europe/Berlin"),
			MIMEType: ptr("image/jpeg"),
		}},
		{"apple-style-mov.json", &Metadata{
			Make: ptr("Apple"), Model: ptr("iPhone 15"),
			LivePhotoCID: ptr("9A1B2C3D-0000-4000-8000-000000000001"),
			Width:        ptr(48), Height: ptr(64), FPS: ptr(30.0), Duration: ptr(1.0),
			Latitude: ptr(48.8584), Longitude: ptr(2.2945), Altitude: ptr(35.0),
			OriginalDatetime:  ptr("2024-05-01T10:00:00+02:00"),
			DigitizedDatetime: ptr("2024-05-01T10:00:00+02:00"),
			ModifiedDatetime:  ptr("2024-05-01T10:00:00+02:00"),
			Capture: &Capture{Wall: time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC), Offset: ptr(7200),
				Source: "CreationDate", OffsetSource: "CreationDate"},
			Timezone: ptr("Europe/Paris"),
			MIMEType: ptr("video/quicktime"),
		}},
	}
	for _, c := range cases {
		t.Run(c.fixture, func(t *testing.T) {
			got := parse(fixture(t, c.fixture), nil)
			if diff := cmp.Diff(c.want, got, cmpopts.EquateApprox(0, 1e-9)); diff != "" {
				t.Fatalf("parse (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseLetsTheSidecarWinExceptForFileFacts(t *testing.T) {
	file := fixture(t, "iphone-4s.json")
	sidecar := map[string]any{
		"MIMEType": "application/rdf+xml", "ImageWidth": 10.0, "ImageHeight": 10.0,
		"Rating": 5.0, "Description": "Gamla stan", "Orientation": 1.0,
		"DateTimeOriginal": "2014:09:01 15:03:47", // without offset: GPS zone applies
	}
	got := parse(file, sidecar)
	require.Equal(t, ptr("image/jpeg"), got.MIMEType)
	require.Equal(t, ptr(5.0), got.Rating)
	require.Equal(t, ptr("Gamla stan"), got.Description)
	require.Equal(t, ptr(1), got.Orientation, "an editor's rotation wins")
	require.Equal(t, []int{205, 102}, []int{*got.Width, *got.Height}, "stored size, now unrotated")
	require.Equal(t, ptr("2014-09-01T15:03:47+02:00"), got.OriginalDatetime,
		"the sidecar's date does not take the file's SubSecTimeOriginal")
}

func TestParseCoercesExiftoolValues(t *testing.T) {
	got := parse(map[string]any{
		"Model":            100.0, // exiftool prints a numeric-looking Model as a number
		"ISO":              "100 100",
		"ExposureTime":     "1/250",
		"FNumber":          0.0,
		"Rating":           7.0,
		"Orientation":      9.0,
		"GPSLatitude":      91.0,
		"GPSLongitude":     10.0,
		"ImageDescription": "  ",
		"Description":      []any{"first", "second"},
	}, nil)
	require.Equal(t, ptr("100"), got.Model)
	require.Equal(t, ptr(100.0), got.ISO)
	require.Equal(t, ptr(0.004), got.ExposureTime)
	require.Nil(t, got.FNumber)
	require.Nil(t, got.Rating, "out of range")
	require.Nil(t, got.Orientation, "out of range")
	require.Nil(t, got.Latitude, "out of range")
	require.Equal(t, ptr("first"), got.Description)
}

func TestParseGivesOtherDatesTheCamerasOffset(t *testing.T) {
	got := parse(map[string]any{
		"DateTimeOriginal": "2024:05:01 10:00:00", "OffsetTimeOriginal": "+02:00",
		"CreateDate": "2024:05:01 10:00:00", "ModifyDate": "2024:05:02 08:00:00", "OffsetTime": "+09:00",
		"GPSLatitude": 35.6895, "GPSLongitude": 139.6917, // Tokyo, camera on +02:00
	}, nil)
	require.Equal(t, ptr("2024-05-01T10:00:00+02:00"), got.DigitizedDatetime, "the camera's offset, not Tokyo's")
	require.Equal(t, ptr("2024-05-02T08:00:00+09:00"), got.ModifiedDatetime, "its own offset")
	require.Nil(t, got.Timezone, "+02:00 is not Tokyo's offset")
}

// TestParseReadsQuickTimeDatesAsInstants: a video's CreateDate and
// ModifyDate are UTC by specification, so without GPS they stay in UTC
// ("Z", offset 0) or take the device's recorded offset, never an unknown
// one; a photo's and a sidecar's dates are wall clocks.
func TestParseReadsQuickTimeDatesAsInstants(t *testing.T) {
	cases := []struct {
		name             string
		file, sidecar    map[string]any
		capture          *Capture
		digitized, modif *string
	}{
		{"a video without GPS stays in UTC",
			map[string]any{"MIMEType": "video/mp4", "CreateDate": "2024:05:01 08:00:00", "ModifyDate": "2024:05:01 08:30:00"}, nil,
			&Capture{Wall: time.Date(2024, 5, 1, 8, 0, 0, 0, time.UTC), Offset: ptr(0), Source: "CreateDate", OffsetSource: "CreateDate"},
			ptr("2024-05-01T08:00:00Z"), ptr("2024-05-01T08:30:00Z")},
		{"the device's recorded offset reads the same instant on its clock",
			map[string]any{"MIMEType": "video/quicktime", "CreateDate": "2024:05:01 08:00:00", "OffsetTimeDigitized": "+09:00",
				"ModifyDate": "2024:05:01 08:30:00", "OffsetTime": "-04:00"}, nil,
			&Capture{Wall: time.Date(2024, 5, 1, 17, 0, 0, 0, time.UTC), Offset: ptr(9 * 3600), Source: "CreateDate",
				OffsetSource: "OffsetTimeDigitized"},
			ptr("2024-05-01T17:00:00+09:00"), ptr("2024-05-01T04:30:00-04:00")},
		{"Apple's creation date gives the device's zone to the other dates",
			map[string]any{"MIMEType": "video/quicktime", "CreationDate": "2024:05:01 10:00:00+02:00",
				"CreateDate": "2024:05:01 08:00:00", "ModifyDate": "2024:05:01 08:00:01"}, nil,
			&Capture{Wall: time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC), Offset: ptr(7200), Source: "CreationDate",
				OffsetSource: "CreationDate"},
			ptr("2024-05-01T10:00:00+02:00"), ptr("2024-05-01T10:00:01+02:00")},
		{"a photo's CreateDate is a wall clock",
			map[string]any{"MIMEType": "image/jpeg", "CreateDate": "2024:05:01 08:00:00"}, nil,
			&Capture{Wall: time.Date(2024, 5, 1, 8, 0, 0, 0, time.UTC), Source: "CreateDate"},
			ptr("2024-05-01T08:00:00"), nil},
		{"a sidecar's CreateDate is a wall clock",
			map[string]any{"MIMEType": "video/mp4"}, map[string]any{"CreateDate": "2024:05:01 08:00:00"},
			&Capture{Wall: time.Date(2024, 5, 1, 8, 0, 0, 0, time.UTC), Source: "CreateDate"},
			ptr("2024-05-01T08:00:00"), nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := parse(c.file, c.sidecar)
			require.Equal(t, c.capture, got.Capture)
			require.Equal(t, c.digitized, got.DigitizedDatetime)
			require.Equal(t, c.modif, got.ModifiedDatetime)
			require.Nil(t, got.Timezone)
		})
	}
}
