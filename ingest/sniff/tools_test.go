package sniff_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/ingest/sniff"
)

// head reads what the upload path hands to Detect: the first 8 KiB.
func head(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return b[:min(len(b), 8<<10)]
}

// run runs a tool that writes out, skipping the test when the tool is not
// installed.
func run(t *testing.T, tool string, args ...string) {
	t.Helper()
	if _, err := exec.LookPath(tool); err != nil {
		t.Skipf("%s is not installed", tool)
	}
	out, err := exec.CommandContext(t.Context(), tool, args...).CombinedOutput()
	require.NoError(t, err, "%s %v: %s", tool, args, out)
}

// TestDetectFilesMadeByFFmpeg sniffs real files: videos in every supported
// container and stills in the formats ffmpeg writes.
func TestDetectFilesMadeByFFmpeg(t *testing.T) {
	video := func(size string) []string {
		return []string{"-f", "lavfi", "-i", "testsrc=size=" + size + ":rate=1", "-t", "1"}
	}
	still := []string{"-f", "lavfi", "-i", "testsrc=size=64x64:rate=1", "-frames:v", "1"}
	cases := []struct {
		name string
		args []string
		file string
		mime string
		kind sniff.Kind
	}{
		{"an MP4 is video/mp4", video("64x64"), "clip.mp4", "video/mp4", sniff.Video},
		{"a MOV is video/quicktime", video("64x64"), "clip.mov", "video/quicktime", sniff.Video},
		{"an M4V is video/x-m4v", video("64x64"), "clip.m4v", "video/x-m4v", sniff.Video},
		{"an MKV is video/x-matroska", video("64x64"), "clip.mkv", "video/x-matroska", sniff.Video},
		{"a WebM is video/webm", video("64x64"), "clip.webm", "video/webm", sniff.Video},
		{"an AVI is video/x-msvideo", video("64x64"), "clip.avi", "video/x-msvideo", sniff.Video},
		{"a 3GP is video/3gpp", video("176x144"), "clip.3gp", "video/3gpp", sniff.Video},
		{"a JPEG still is image/jpeg", still, "still.jpg", "image/jpeg", sniff.Image},
		{"a PNG still is image/png", still, "still.png", "image/png", sniff.Image},
		{"a WebP still is image/webp", still, "still.webp", "image/webp", sniff.Image},
		{"a TIFF still is image/tiff", still, "still.tiff", "image/tiff", sniff.Image},
		{"an AVIF still is image/avif", append(append([]string{}, still...), "-c:v", "libaom-av1", "-still-picture", "1"), "still.avif", "image/avif", sniff.Image},
	}
	dir := t.TempDir()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			out := filepath.Join(dir, c.file)
			run(t, "ffmpeg", append(append([]string{"-v", "error"}, c.args...), "-y", out)...)
			h := head(t, out)

			got, ok := sniff.Detect(h, c.file)
			require.True(t, ok)
			require.Equal(t, c.mime, got.MIME)
			require.Equal(t, c.kind, got.Kind)

			renamed, ok := sniff.Detect(h, "misnamed.gif")
			require.True(t, ok, "the name does not matter")
			require.Equal(t, got, renamed)
		})
	}
}

// TestDetectFilesMadeByLibheif sniffs HEIC and AVIF files as libheif's
// heif-enc writes them (brands mif1/heic and avif/mif1).
func TestDetectFilesMadeByLibheif(t *testing.T) {
	dir := t.TempDir()
	png := filepath.Join(dir, "source.png")
	require.NoError(t, os.WriteFile(png, encoded(t, "png"), 0o600))
	cases := []struct {
		name string
		args []string
		file string
		mime string
	}{
		{"a HEIC from heif-enc is image/heic", nil, "photo.heic", "image/heic"},
		{"an AVIF from heif-enc is image/avif", []string{"--avif"}, "photo.avif", "image/avif"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(dir, c.file)
			run(t, "heif-enc", append(c.args, "-o", out, png)...)
			got, ok := sniff.Detect(head(t, out), "IMG_0001.jpg")
			require.True(t, ok)
			require.Equal(t, c.mime, got.MIME)
			require.Equal(t, sniff.Image, got.Kind)
		})
	}
}
