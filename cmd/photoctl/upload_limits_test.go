package main

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"

	"github.com/photoctl/photoctl/server/servertest"
)

// writeTinyPhotos writes n distinct small JPEGs into dir, in folders of
// 100.
func writeTinyPhotos(tb testing.TB, dir string, n int) {
	tb.Helper()
	for i := range n {
		img := image.NewRGBA(image.Rect(0, 0, 12, 8))
		for p := range 96 {
			img.Set(p%12, p/12, color.RGBA{uint8(i), uint8(i >> 8), uint8(p * 2), 255})
		}
		var buf bytes.Buffer
		require.NoError(tb, jpeg.Encode(&buf, img, &jpeg.Options{Quality: 90}))
		sub := filepath.Join(dir, fmt.Sprintf("roll-%02d", i/100))
		require.NoError(tb, os.MkdirAll(sub, 0o755))
		require.NoError(tb, os.WriteFile(filepath.Join(sub, fmt.Sprintf("img-%04d.jpg", i)), buf.Bytes(), 0o644))
	}
}

// uploadServer starts photoctl serve (the default configuration, but for
// the PHOTOCTL_* variables in extra) and signs photoctl in; it returns the
// environment photoctl runs in, the server's address and an access token.
func uploadServer(t testing.TB, extra ...string) ([]string, string, string) {
	env := binaryEnv(t, append([]string{"XDG_CACHE_HOME=" + t.TempDir(), "NO_COLOR=1"}, extra...)...)
	dataDir, addr := t.TempDir(), freeAddr(t)
	createUser(t, env, "--data-dir", dataDir)
	s := startServe(t, env, "--listen", addr, "--data-dir", dataDir)
	base := "http://" + addr
	s.waitReady(t, base)
	r := runBinary(t, env, binaryPassword+"\n", "login", "--server", base, "--email", binaryEmail, "--password-stdin")
	require.Equal(t, exitOK, r.code, "login: %s", r.stderr)
	return env, base, login(t, base)
}

// A thousand files from one folder, with the default limits: every file
// is uploaded, the command exits 0, and it prints its summary only.
func TestBinaryUploadOfAThousandFilesWithDefaultLimits(t *testing.T) {
	servertest.SkipStoreNeutralOnPostgres(t, "the client and the rate limiter's defaults")
	dir := t.TempDir()
	writeTinyPhotos(t, dir, 1000)
	env, base, token := uploadServer(t)

	start := time.Now()
	r := runBinary(t, env, "", "upload", "-r", dir)
	t.Logf("uploaded 1000 files in %s", time.Since(start))
	require.Equal(t, exitOK, r.code, "stdout: %s\nstderr: %s", r.stdout, r.stderr)
	require.NotContains(t, r.stdout+r.stderr, "429")
	require.NotContains(t, r.stdout+r.stderr, "Unsolicited")
	lines := strings.Split(strings.TrimSpace(r.stdout+r.stderr), "\n")
	require.LessOrEqual(t, len(lines), 3, "a summary, nothing else:\n%s", r.stdout+r.stderr)
	var counts api.Page[api.AssetCount]
	nativeGet(t, base, token, "/api/assets/counts?stacks=expand&bucket=year", &counts)
	var total int64
	for _, c := range counts.Data {
		total += c.Count
	}
	require.EqualValues(t, 1000, total)
}

// BenchmarkUploadThousandFiles times `photoctl upload -r` of a thousand
// files with the default limits and with limits off; the target is
// the first within 1.5× of the second. Each iteration uploads into a new
// server.
func BenchmarkUploadThousandFiles(b *testing.B) {
	dir := b.TempDir()
	writeTinyPhotos(b, dir, 1000)
	for _, c := range []struct {
		name string
		env  []string
	}{{"limits=default", nil}, {"limits=off", []string{"PHOTOCTL_RATE_LIMIT_ENABLED=false"}}} {
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				b.StopTimer()
				env, _, _ := uploadServer(b, c.env...)
				b.StartTimer()
				r := runBinary(b, env, "", "upload", "-r", dir)
				b.StopTimer()
				require.Equal(b, exitOK, r.code, r.stderr)
			}
		})
	}
}
