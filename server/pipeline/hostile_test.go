package pipeline_test

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/servertest"
)

// Hostile media (issue 14): files built here, not downloaded. Each one
// goes through the real server's pipeline; whatever a step cannot do ends
// as a failed task with its reason, the original stays downloadable, and
// the worker goes on to the next upload.

// pngChunk is one PNG chunk with its CRC.
func pngChunk(typ string, data []byte) []byte {
	var b bytes.Buffer
	_ = binary.Write(&b, binary.BigEndian, uint32(len(data)))
	b.WriteString(typ)
	b.Write(data)
	_ = binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(append([]byte(typ), data...)))
	return b.Bytes()
}

// pngBomb is a ~100-byte PNG whose header claims w×h RGB pixels.
func pngBomb(w, h uint32) []byte {
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 2 // 8-bit RGB
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	_, _ = zw.Write(make([]byte, 4096)) // the first rows, zeros
	_ = zw.Close()
	out := []byte("\x89PNG\r\n\x1a\n")
	out = append(out, pngChunk("IHDR", ihdr)...)
	out = append(out, pngChunk("IDAT", z.Bytes())...)
	return append(out, pngChunk("IEND", nil)...)
}

// jpegClaiming rewrites the frame header (SOF0) of a real JPEG to claim
// w×h pixels; the scan data stays that of the small image.
func jpegClaiming(t *testing.T, data []byte, w, h uint16) []byte {
	out := bytes.Clone(data)
	i := bytes.Index(out, []byte{0xff, 0xc0})
	require.Positive(t, i, "baseline JPEG")
	binary.BigEndian.PutUint16(out[i+5:], h)
	binary.BigEndian.PutUint16(out[i+7:], w)
	return out
}

// hostileFile is one upload and what must become of it.
type hostileFile struct {
	name string
	data []byte
	// failed names the task kinds that must fail, with a word of their
	// error; other tasks may succeed or fail, but none may hang.
	failed map[string]string
}

func hostileFiles(t *testing.T) []hostileFile {
	jpeg := servertest.JPEG(t, 64, 48, 3)
	pngPath := filepath.Join(t.TempDir(), "p.png")
	run(t, "ffmpeg", "-v", "error", "-nostdin", "-f", "lavfi", "-i", "testsrc=size=64x48", "-frames:v", "1", pngPath)
	png := readFile(t, pngPath)
	mp4 := readFile(t, makeVideo(t, "clip.mp4", "160x120", "10", "1", "-c:v", "libx264", "-pix_fmt", "yuv420p"))

	absurd := filepath.Join(t.TempDir(), "absurd.jpg")
	writeFile(t, absurd, servertest.JPEG(t, 64, 48, 4))
	tag(t, absurd, "-DateTimeOriginal=9999:12:31 23:59:59", "-OffsetTimeOriginal=+99:00", "-GPSLatitude=95",
		"-GPSLatitudeRef=N", "-GPSLongitude=999", "-GPSLongitudeRef=W", "-ExposureTime=-5", "-FNumber=-2",
		"-ISO=4294967295", "-Orientation#=99", "-Rating=9999", "-ExifImageWidth=4294967295", "-ExifImageHeight=1")

	files := []hostileFile{
		{name: "bomb.png", data: pngBomb(60000, 60000), failed: map[string]string{"variants": "pixels"}},
		{name: "bomb.jpg", data: jpegClaiming(t, jpeg, 60000, 60000), failed: map[string]string{"variants": "pixels"}},
		{name: "truncated.jpg", data: jpeg[:len(jpeg)/2], failed: map[string]string{"variants": "end-of-image"}},
		{name: "truncated.png", data: png[:len(png)/2], failed: map[string]string{"variants": "IEND"}},
		{name: "truncated.mp4", data: mp4[:len(mp4)/2], failed: map[string]string{"variants": ""}},
		{name: "png-named.jpg", data: png},
		{name: "jpeg-named.mp4", data: servertest.JPEG(t, 64, 48, 5)},
		{name: "jpeg+zip.jpg", data: append(bytes.Clone(jpeg), []byte("PK\x03\x04\x14\x00\x00\x00\x00\x00evil.sh#!/bin/sh\nrm -rf /\nPK\x05\x06"+strings.Repeat("\x00", 18))...)},
		{name: "gif+js.gif", data: []byte("GIF89a/*\x01\x00\x01\x00\x00\x00\x00;*/=1;alert(document.cookie);//"), failed: map[string]string{"variants": ""}},
		{name: "absurd-exif.jpg", data: readFile(t, absurd)},
	}
	if _, err := exec.LookPath("heif-enc"); err == nil {
		heic := filepath.Join(t.TempDir(), "p.heic")
		run(t, "heif-enc", "-q", "50", "-o", heic, pngPath)
		data := readFile(t, heic)
		files = append(files, hostileFile{name: "truncated.heic", data: data[:len(data)*2/3], failed: map[string]string{"variants": ""}})
	}
	return files
}

// TestHostileMediaFailsItsTasksAndTheWorkerGoesOn uploads each hostile
// file to one server with the pipeline running.
func TestHostileMediaFailsItsTasksAndTheWorkerGoesOn(t *testing.T) {
	servertest.SkipStoreNeutralOnPostgres(t, "hostile media in the tools")
	needTools(t, "exiftool", "ffmpeg", "ffprobe")
	s := servertest.Start(t, servertest.WithPipeline)
	_, token := s.Session()
	for _, f := range hostileFiles(t) {
		t.Run(f.name, func(t *testing.T) {
			r := s.Upload(token, f.name, f.data, nil)
			if r.Status != http.StatusCreated {
				require.Contains(t, []int{http.StatusUnsupportedMediaType, http.StatusUnprocessableEntity}, r.Status, "%s", r.Body)
				t.Logf("%s: refused at upload (%d): %s", f.name, r.Status, r.Body)
				return
			}
			var a api.Asset
			r.JSON(t, &a)
			outcome := requireChainEnds(t, s, token, a.ID, f.data)
			for kind, word := range f.failed {
				require.Contains(t, outcome, kind, "%s has no %s task", f.name, kind)
				require.Equal(t, "failed", outcome[kind].State, "%s %s", f.name, kind)
				require.Contains(t, *outcome[kind].Error, word)
			}
		})
	}
	// The worker goes on: a normal photo after them is ingested whole.
	a := s.UploadAsset(token, "normal.jpg", servertest.JPEG(t, 64, 48, 99), nil)
	outcome := requireChainEnds(t, s, token, a.ID, nil)
	for _, kind := range []string{"metadata", "variants", "geocode"} {
		require.Equal(t, "succeeded", outcome[kind].State, "%s: %v", kind, outcome[kind].Error)
	}
}

// requireChainEnds waits for the asset's task chain to end and checks the
// asset: every task succeeded or failed with a reason, the asset reads
// (no value that breaks its JSON), and the original downloads unchanged.
// It returns the last task of each kind.
func requireChainEnds(t *testing.T, s *servertest.Server, token, id string, data []byte) map[string]api.Task {
	t.Helper()
	out := map[string]api.Task{}
	for _, task := range s.WaitForTasks(token, id, chainTimeout) {
		require.Contains(t, []string{"succeeded", "failed"}, task.State, "%s", task.Kind)
		if task.State == "failed" {
			require.NotNil(t, task.Error)
			require.NotEmpty(t, *task.Error)
			t.Logf("%s failed: %.200s", task.Kind, *task.Error)
		}
		out[task.Kind] = task
	}
	r := s.Do("GET", "/api/assets/"+id, token, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	r = s.Do("GET", "/api/assets/"+id+"/original", token, nil)
	require.Equal(t, http.StatusOK, r.Status)
	if data != nil {
		require.Equal(t, data, r.Body)
	}
	require.True(t, strings.HasPrefix(r.Header.Get("Content-Disposition"), "attachment"))
	return out
}

// TestAHangingFFprobeFailsItsTaskAtTheTimeLimit: no real file we could
// build hangs this ffprobe, so a stand-in ffprobe that never answers is
// put first on PATH for this test only. The metadata step of a video
// runs it; at ingest.task_timeout the run is killed and the task fails for
// good with the time limit in its error, the video stays downloadable,
// and a photo uploaded after it is ingested.
func TestAHangingFFprobeFailsItsTaskAtTheTimeLimit(t *testing.T) {
	servertest.SkipStoreNeutralOnPostgres(t, "ffprobe's time limit")
	needTools(t, "exiftool", "ffmpeg", "ffprobe")
	mp4 := readFile(t, makeVideo(t, "clip.mp4", "160x120", "10", "1", "-c:v", "libx264", "-pix_fmt", "yuv420p"))
	bin := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(bin, "ffprobe"), []byte("#!/bin/sh\nexec sleep 3600\n"), 0o755))
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))

	s := servertest.Start(t, servertest.WithPipeline, func(c *app.Config) { c.Ingest.TaskTimeout = 5 * time.Second })
	_, token := s.Session()
	r := s.Upload(token, "hang.mp4", mp4, nil)
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	var a api.Asset
	r.JSON(t, &a)
	outcome := requireChainEnds(t, s, token, a.ID, mp4)
	require.Equal(t, "failed", outcome["metadata"].State)
	require.Contains(t, *outcome["metadata"].Error, "time limit")
	require.Equal(t, 1, outcome["metadata"].Attempts, "a timeout is not retried")

	photo := s.UploadAsset(token, "after.jpg", servertest.JPEG(t, 64, 48, 7), nil)
	after := requireChainEnds(t, s, token, photo.ID, nil)
	require.Equal(t, "succeeded", after["variants"].State)
}
