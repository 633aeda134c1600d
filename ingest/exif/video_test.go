package exif_test

import (
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/ingest/exif"
)

// ffmpegClip is the command that writes a one-second 64×48 test clip.
func ffmpegClip(t testing.TB, out string, rate string, metadata ...string) *exec.Cmd {
	args := []string{"-v", "error", "-f", "lavfi", "-i", "testsrc=size=64x48:rate=" + rate, "-t", "1"}
	for _, m := range metadata {
		args = append(args, "-metadata", m)
	}
	return exec.CommandContext(t.Context(), "ffmpeg", append(args, "-y", out)...)
}

func TestReadAnMP4ConvertsUTCToThePlacesTime(t *testing.T) {
	t.Parallel()
	clip := filepath.Join(t.TempDir(), "clip.mp4")
	run(t, ffmpegClip(t, clip, "25", "creation_time=2024-05-01T08:00:00Z", "location=+48.8584+002.2945/"))

	got, err := newPool(t, exif.Config{}).Read(t.Context(), clip, "")
	require.NoError(t, err)

	// ffmpeg stores the location in 16.16 fixed point: 2.2945 reads 2.29449.
	require.InDelta(t, 48.8584, *got.Latitude, 1e-4)
	require.InDelta(t, 2.2945, *got.Longitude, 1e-4)
	got.Latitude, got.Longitude, got.Altitude = nil, nil, nil
	requireMetadata(t, &exif.Metadata{
		Width: ptr(64), Height: ptr(48), FPS: ptr(25.0), Duration: ptr(1.0),
		DigitizedDatetime: ptr("2024-05-01T10:00:00+02:00"),
		ModifiedDatetime:  ptr("2024-05-01T10:00:00+02:00"),
		Capture: &exif.Capture{Wall: utc(2024, 5, 1, 10, 0, 0, 0), Offset: ptr(7200),
			Source: "CreateDate", OffsetSource: exif.GPSDerivedOffset},
		Timezone: ptr("Europe/Paris"),
		MIMEType: ptr("video/mp4"),
	}, got)
}

func TestReadAnMP4WithoutLocationIsAnInstantInUTC(t *testing.T) {
	t.Parallel()
	clip := filepath.Join(t.TempDir(), "clip.mp4")
	run(t, ffmpegClip(t, clip, "30", "creation_time=2024-05-01T08:00:00Z"))

	got, err := newPool(t, exif.Config{}).Read(t.Context(), clip, "")
	require.NoError(t, err)
	require.Equal(t, ptr("2024-05-01T08:00:00Z"), got.DigitizedDatetime)
	require.Equal(t, &exif.Capture{Wall: utc(2024, 5, 1, 8, 0, 0, 0), Offset: ptr(0),
		Source: "CreateDate", OffsetSource: "CreateDate"}, got.Capture,
		"the reading is UTC by specification: an instant, kept in UTC")
	require.Nil(t, got.Timezone)
	require.Equal(t, ptr(30.0), got.FPS)
}

func TestReadAnAppleStyleMOV(t *testing.T) {
	t.Parallel()
	clip := filepath.Join(t.TempDir(), "IMG_0001.MOV")
	cmd := ffmpegClip(t, clip, "30",
		"creation_time=2024-05-01T08:00:00Z",
		"com.apple.quicktime.creationdate=2024-05-01T10:00:00+0200",
		"com.apple.quicktime.content.identifier=9A1B2C3D-0000-4000-8000-000000000001",
		"com.apple.quicktime.location.ISO6709=+48.8584+002.2945+035.000/",
		"com.apple.quicktime.make=Apple", "com.apple.quicktime.model=iPhone 15")
	cmd.Args = append(cmd.Args[:len(cmd.Args)-2], "-movflags", "use_metadata_tags", "-y", clip)
	run(t, cmd)
	run(t, exiftoolWrite(t, clip, "-Rotation=90"))

	got, err := newPool(t, exif.Config{}).Read(t.Context(), clip, "")
	require.NoError(t, err)
	requireMetadata(t, &exif.Metadata{
		Make: ptr("Apple"), Model: ptr("iPhone 15"),
		LivePhotoCID: ptr("9A1B2C3D-0000-4000-8000-000000000001"),
		Width:        ptr(48), Height: ptr(64), FPS: ptr(30.0), Duration: ptr(1.0),
		Latitude: ptr(48.8584), Longitude: ptr(2.2945), Altitude: ptr(35.0),
		OriginalDatetime:  ptr("2024-05-01T10:00:00+02:00"),
		DigitizedDatetime: ptr("2024-05-01T10:00:00+02:00"),
		ModifiedDatetime:  ptr("2024-05-01T10:00:00+02:00"),
		Capture: &exif.Capture{Wall: utc(2024, 5, 1, 10, 0, 0, 0), Offset: ptr(7200),
			Source: "CreationDate", OffsetSource: "CreationDate"},
		Timezone: ptr("Europe/Paris"),
		MIMEType: ptr("video/quicktime"),
	}, got)
}
