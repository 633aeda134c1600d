package pipeline_test

import (
	"bytes"
	"image"
	"image/jpeg"
	"io"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/ingest/exif"
	"github.com/photoctl/photoctl/server/assets"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/pipeline"
	"github.com/photoctl/photoctl/server/servertest"
)

// makeVideo has ffmpeg write name from a test pattern of the given size,
// rate and duration, with extra output arguments, and returns its path.
func makeVideo(t *testing.T, name, size, rate, seconds string, args ...string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), name)
	all := []string{"-v", "error", "-nostdin", "-f", "lavfi", "-i", "testsrc=size=" + size + ":rate=" + rate,
		"-t", seconds}
	run(t, "ffmpeg", append(append(all, args...), "-y", out)...)
	return out
}

// poster reads and decodes a video's poster frame.
func (e *env) poster(id string) image.Image {
	e.t.Helper()
	f, err := e.blobs.Open(pipeline.PosterKey(id))
	require.NoError(e.t, err, "the poster of %s", id)
	defer f.Close()
	data, err := io.ReadAll(f)
	require.NoError(e.t, err)
	img, err := jpeg.Decode(bytes.NewReader(data))
	require.NoError(e.t, err)
	return img
}

func TestAnMP4RotatedWithCreationTimeAndGPS(t *testing.T) {
	t.Parallel()
	servertest.SkipStoreNeutralOnPostgres(t, "what ffprobe reads from a video")
	e := newEnv(t)
	path := makeVideo(t, "clip.mp4", "320x240", "30", "2", "-c:v", "libx264", "-pix_fmt", "yuv420p",
		"-metadata", "creation_time=2024-05-01T08:00:00Z", "-metadata", "location=+48.8584+002.2945/",
		"-movflags", "use_metadata_tags")
	tag(t, path, "-Rotation=90")
	a := e.upload(path, "", assets.UploadInput{})
	require.Equal(t, catalog.MediaVideo, a.MediaType)
	a = e.ingest(a.ID)

	m := a.Merged()
	require.Equal(t, [2]int{240, 320}, [2]int{*a.Width, *a.Height}, "a quarter turn for display")
	require.Equal(t, ptr(30.0), m.FPS)
	require.Equal(t, "2024-05-01T10:00:00+02:00", a.Capture.String(), "QuickTime's UTC in the place's time")
	require.Equal(t, ptr("Europe/Paris"), m.Timezone)
	require.InDelta(t, 48.8584, *m.Latitude, 1e-4)
	require.Equal(t, ptr("Paris, France"), m.DisplayLabel)

	require.Equal(t, [2]int{240, 320}, size(e.poster(a.ID)), "the poster is upright")
	require.False(t, e.hasBlob(assets.VariantKey(a.ID, "thumbnail", ".webp")), "videos have the original only")
	require.Regexp(t, `^[0-9a-f]{16}$`, a.Metrics["phash"], "metrics come from the poster")

	_, err := e.assets.Delete(e.ctx, e.user, []string{a.ID})
	require.NoError(t, err)
	require.False(t, e.hasBlob(pipeline.PosterKey(a.ID)), "the poster goes with the asset")
}

func TestAnAppleMOVWithLivePhotoIdentifier(t *testing.T) {
	t.Parallel()
	servertest.SkipStoreNeutralOnPostgres(t, "what ffprobe reads from a video")
	e := newEnv(t)
	path := makeVideo(t, "IMG_0001.MOV", "320x240", "25", "1", "-c:v", "libx264", "-pix_fmt", "yuv420p",
		"-movflags", "use_metadata_tags",
		"-metadata", "com.apple.quicktime.make=Apple",
		"-metadata", "com.apple.quicktime.model=iPhone 15 Pro",
		"-metadata", "com.apple.quicktime.content.identifier=1F4C9A2E-7B1D-4C8E-9F00-5D2A1B3C4D5E",
		"-metadata", "com.apple.quicktime.location.ISO6709=+35.0116+135.7681+042.500/",
		"-metadata", "com.apple.quicktime.creationdate=2024-05-01T17:00:00+0900")
	a := e.ingest(e.upload(path, "", assets.UploadInput{}).ID)

	m := a.Merged()
	require.Equal(t, "video/quicktime", a.MIMEType)
	require.Equal(t, ptr("Apple"), m.Make)
	require.Equal(t, ptr("iPhone 15 Pro"), m.Model)
	require.Equal(t, ptr("1F4C9A2E-7B1D-4C8E-9F00-5D2A1B3C4D5E"), m.LivePhotoCID)
	require.Equal(t, "2024-05-01T17:00:00+09:00", a.Capture.String())
	require.Equal(t, ptr(25.0), m.FPS)
	require.InDelta(t, 42.5, *m.Altitude, 1e-9)
	require.Equal(t, ptr("JP"), m.CountryCode)
	require.Equal(t, [2]int{320, 240}, size(e.poster(a.ID)))
}

func TestAWebMGetsItsFactsFromFFprobe(t *testing.T) {
	t.Parallel()
	servertest.SkipStoreNeutralOnPostgres(t, "what ffprobe reads from a video")
	e := newEnv(t)
	path := makeVideo(t, "clip.webm", "160x120", "24", "1", "-c:v", "libvpx-vp9", "-deadline", "realtime",
		"-metadata", "creation_time=2024-05-01T08:00:00Z")
	a := e.ingest(e.upload(path, "", assets.UploadInput{}).ID)
	require.Equal(t, "video/webm", a.MIMEType)
	require.Equal(t, [2]int{160, 120}, [2]int{*a.Width, *a.Height})
	require.Equal(t, ptr(24.0), a.Merged().FPS)
	require.Equal(t, "2024-05-01T08:00:00Z", a.Capture.String(), "Matroska's DateUTC is an instant, read as such")
	require.Equal(t, [2]int{160, 120}, size(e.poster(a.ID)))
}

func TestAnUnreadableVideoFailsItsPosterForGood(t *testing.T) {
	t.Parallel()
	servertest.SkipStoreNeutralOnPostgres(t, "an unreadable video")
	e := newEnv(t)
	path := makeVideo(t, "clip.mp4", "160x120", "10", "1", "-c:v", "libx264", "-pix_fmt", "yuv420p")
	data := readFile(t, path)
	cut := filepath.Join(t.TempDir(), "cut.mp4")
	writeFile(t, cut, data[:len(data)/2]) // the moov atom is at the end: gone
	a := e.upload(cut, "", assets.UploadInput{})
	require.Equal(t, catalog.MediaVideo, a.MediaType)
	require.NoError(t, e.p.Metadata(e.ctx, a.ID), "metadata keeps what it can read")
	err := e.p.Variants(e.ctx, a.ID)
	require.Error(t, err)
	requirePermanent(t, err)
}

// TestCreationTimeIsAnInstant: ffprobe's creation time, the capture of a
// video exiftool found no date in, is an instant: in the GPS zone, else at
// the offset written with it, else in UTC ("Z"), never offsetless.
func TestCreationTimeIsAnInstant(t *testing.T) {
	may1 := time.Date(2024, 5, 1, 8, 0, 0, 0, time.UTC)
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	require.NoError(t, err)
	cases := []struct {
		name       string
		at         time.Time
		zone       *time.Location
		want, from string
	}{
		{"a UTC creation_time without GPS stays in UTC", may1, nil, "2024-05-01T08:00:00Z", "creation_time"},
		{"Apple's creation date keeps the camera's offset", may1.In(time.FixedZone("", 2*3600)), nil,
			"2024-05-01T10:00:00+02:00", "creation_time"},
		{"with GPS, the place's time", may1, tokyo, "2024-05-01T17:00:00+09:00", exif.GPSDerivedOffset},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := pipeline.CreationCapture(c.at, c.zone)
			require.NotNil(t, got.Offset)
			instant, ok := got.Instant()
			require.True(t, ok)
			require.True(t, instant.Equal(may1), "the same instant: %v", instant)
			require.Equal(t, c.want, catalog.CaptureTime{Wall: got.Wall, Offset: got.Offset}.String())
			require.Equal(t, c.from, got.OffsetSource)
			require.Equal(t, "creation_time", got.Source)
		})
	}
}
