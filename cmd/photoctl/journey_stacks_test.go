package main

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
)

// A new user's journey with the default configuration: import a folder
// that holds real bursts beside look-alike files without camera metadata,
// then export it, bulk-edit a date range and trash what ls lists. Nothing
// a stack holds may be left out of any of it.

// journeyBurstDay is the day of the folder's main burst (Paris time).
var journeyBurstDay = time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)

// journeyFolder is the folder a user imports, with what it should become.
type journeyFolder struct {
	dir    string
	burst  []string // names of the five frames that must form one stack
	burst2 []string // a second camera's burst of three
	files  int
}

// realPhoto decodes a real photo of govips' test data (in the module
// cache), scaled down by 4 so frames stay small.
func realPhoto(t *testing.T, name string) *image.RGBA {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/davidbyttow/govips/v2").Output()
	require.NoError(t, err)
	f, err := os.Open(filepath.Join(strings.TrimSpace(string(out)), "resources", name))
	require.NoError(t, err)
	defer f.Close()
	img, err := jpeg.Decode(f)
	require.NoError(t, err)
	b := img.Bounds()
	small := image.NewRGBA(image.Rect(0, 0, b.Dx()/4, b.Dy()/4))
	for y := range small.Bounds().Dy() {
		for x := range small.Bounds().Dx() {
			small.Set(x, y, img.At(b.Min.X+4*x, b.Min.Y+4*y))
		}
	}
	return small
}

// frameOf is photo seen through a camera moved by dx, dy pixels: a window
// of 90% of the frame.
func frameOf(photo *image.RGBA, dx, dy int) *image.RGBA {
	b := photo.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, b.Dx()*9/10, b.Dy()*9/10))
	draw.Draw(out, out.Bounds(), photo, image.Pt(b.Dx()/20+dx, b.Dy()/20+dy), draw.Src)
	return out
}

// patchwork is a distinct picture: random coloured blocks.
func patchwork(seed uint64) *image.RGBA {
	r := rand.New(rand.NewPCG(seed, 7))
	img := image.NewRGBA(image.Rect(0, 0, 160, 120))
	for range 12 {
		c := color.RGBA{uint8(r.IntN(256)), uint8(r.IntN(256)), uint8(r.IntN(256)), 255}
		x, y := r.IntN(140), r.IntN(100)
		draw.Draw(img, image.Rect(x, y, x+20+r.IntN(80), y+20+r.IntN(60)), &image.Uniform{c}, image.Point{}, draw.Src)
	}
	return img
}

// writeFrame writes img as a JPEG at dir/name with the file time at, then
// tags it with exiftool when tags are given.
func writeFrame(t *testing.T, dir, name string, img image.Image, at time.Time, tags ...string) {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, jpeg.Encode(&buf, img, &jpeg.Options{Quality: 90}))
	path := filepath.Join(dir, name)
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
	if len(tags) > 0 {
		out, err := exec.Command("exiftool", append(append([]string{"-q", "-overwrite_original"}, tags...), path)...).CombinedOutput()
		require.NoError(t, err, "exiftool: %s", out)
	}
	require.NoError(t, os.Chtimes(path, at, at))
}

// cameraTags are the tags of a shot by make/model at (Paris time), to the
// millisecond.
func cameraTags(make, model string, at time.Time) []string {
	return []string{"-Make=" + make, "-Model=" + model, "-DateTimeOriginal=" + at.Format("2006:01:02 15:04:05"),
		"-SubSecTimeOriginal=" + at.Format(".000")[1:], "-OffsetTimeOriginal=+02:00"}
}

// newJourneyFolder writes 210 files: a burst of five frames 0.1 s apart,
// ten look-alike frames without EXIF whose file times fall in one second,
// two cameras' shots in one second, a second burst of three, and 190
// distinct pictures without EXIF, a day apart.
func newJourneyFolder(t *testing.T) *journeyFolder {
	t.Helper()
	root := t.TempDir()
	jf := &journeyFolder{dir: root}
	portrait, scene := realPhoto(t, "jpg-24bit-rgb-no-icc.jpg"), realPhoto(t, "jpg-24bit-icc-iec.jpg")
	for i := range 5 {
		at := journeyBurstDay.Add(time.Duration(i) * 100 * time.Millisecond)
		name := fmt.Sprintf("IMG_%04d.JPG", i+1)
		writeFrame(t, filepath.Join(root, "burst"), name, frameOf(portrait, 3*i, 2*i), at.Add(time.Hour),
			cameraTags("Canon", "Canon EOS R5", at)...)
		jf.burst = append(jf.burst, name)
	}
	copied := journeyBurstDay.AddDate(0, 0, 3) // when the look-alikes were copied
	for i := range 10 {
		writeFrame(t, filepath.Join(root, "screenshots"), fmt.Sprintf("shot-%02d.jpg", i),
			frameOf(scene, 2*i, i), copied.Add(time.Duration(i)*50*time.Millisecond))
	}
	same := journeyBurstDay.AddDate(0, 0, 5)
	writeFrame(t, filepath.Join(root, "party"), "canon.jpg", frameOf(portrait, 0, 0), same,
		cameraTags("Canon", "Canon EOS R5", same)...)
	writeFrame(t, filepath.Join(root, "party"), "nikon.jpg", frameOf(portrait, 2, 1), same,
		cameraTags("NIKON CORPORATION", "NIKON Z 6", same)...)
	second := journeyBurstDay.AddDate(0, 0, 7)
	for i := range 3 {
		at := second.Add(time.Duration(i) * 200 * time.Millisecond)
		name := fmt.Sprintf("DSC%05d.JPG", i+1)
		writeFrame(t, filepath.Join(root, "sony"), name, frameOf(scene, 0, 3*i), at,
			cameraTags("SONY", "ILCE-7M3", at)...)
		jf.burst2 = append(jf.burst2, name)
	}
	for i := range 190 {
		at := journeyBurstDay.AddDate(0, 0, -i-1)
		writeFrame(t, filepath.Join(root, "archive", fmt.Sprint(i%4)), fmt.Sprintf("scan-%03d.jpg", i),
			patchwork(uint64(i)), at)
	}
	jf.files = 5 + 10 + 2 + 3 + 190
	return jf
}

// journey is a running `photoctl serve` with the default configuration
// and a signed-in photoctl.
type journey struct {
	base, token string
	env         []string
}

func startJourney(t *testing.T) *journey {
	t.Helper()
	env, dataDir, addr := binaryEnv(t, "XDG_CACHE_HOME="+t.TempDir(), "NO_COLOR=1"), t.TempDir(), freeAddr(t)
	createUser(t, env, "--data-dir", dataDir)
	s := startServe(t, env, "--listen", addr, "--data-dir", dataDir)
	j := &journey{base: "http://" + addr, env: env}
	s.waitReady(t, j.base)
	j.token = login(t, j.base)
	r := runBinary(t, env, binaryPassword+"\n", "login", "--server", j.base, "--email", binaryEmail, "--password-stdin")
	require.Equal(t, exitOK, r.code, "login: %s", r.stderr)
	return j
}

// run runs photoctl and requires exit status 0.
func (j *journey) run(t *testing.T, stdin string, args ...string) cliResult {
	t.Helper()
	r := runBinary(t, j.env, stdin, args...)
	require.Equal(t, exitOK, r.code, "photoctl %s:\nstdout: %s\nstderr: %s", strings.Join(args, " "), r.stdout, r.stderr)
	return r
}

// assets lists every asset of the library through the API in the
// expanded view, in state.
func (j *journey) assets(t *testing.T, query string) []api.Asset {
	t.Helper()
	var all []api.Asset
	after := ""
	for {
		var page api.Page[api.Asset]
		nativeGet(t, j.base, j.token, "/api/assets?stacks=expand&limit=200&"+query+"&starting_after_id="+after, &page)
		all = append(all, page.Data...)
		if !page.HasMore {
			return all
		}
		after = page.Data[len(page.Data)-1].ID
	}
}

// waitForBursts waits until every asset's burst step has run.
func (j *journey) waitForBursts(t *testing.T, n int) {
	t.Helper()
	deadline := time.Now().Add(4 * time.Minute)
	for {
		done := 0
		after := ""
		for {
			var page api.Page[api.Task]
			nativeGet(t, j.base, j.token, "/api/tasks?kind=burst&state=succeeded&limit=200&starting_after_id="+after, &page)
			done += len(page.Data)
			if !page.HasMore {
				break
			}
			after = page.Data[len(page.Data)-1].ID
		}
		if done >= n {
			return
		}
		require.True(t, time.Now().Before(deadline), "%d of %d burst steps done after 4 minutes", done, n)
		time.Sleep(500 * time.Millisecond)
	}
}

// namesOf returns the original file names of the assets with these ids.
func namesOf(list []api.Asset, ids []string) []string {
	var out []string
	for _, a := range list {
		if slices.Contains(ids, a.ID) {
			out = append(out, a.OriginalFileName)
		}
	}
	slices.Sort(out)
	return out
}

// requireSameFiles checks that dir holds exactly one file per asset, each
// equal byte for byte to the original of that name in the folder.
func requireSameFiles(t *testing.T, jf *journeyFolder, dir string, want []api.Asset) {
	t.Helper()
	originals := map[string]string{}
	require.NoError(t, filepath.WalkDir(jf.dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			originals[d.Name()] = path
		}
		return err
	}))
	var written []string
	require.NoError(t, filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		written = append(written, d.Name())
		got, err := os.ReadFile(path)
		require.NoError(t, err)
		orig, err := os.ReadFile(originals[d.Name()])
		require.NoError(t, err, "%s has no original of that name", d.Name())
		require.True(t, bytes.Equal(orig, got), "%s differs from its original", d.Name())
		return nil
	}))
	var names []string
	for _, a := range want {
		names = append(names, a.OriginalFileName)
	}
	slices.Sort(names)
	slices.Sort(written)
	require.Equal(t, names, written)
}

func TestJourneyImportABurstFolderThenExportBulkEditAndTrashIt(t *testing.T) {
	for _, tool := range []string{"exiftool", "ffmpeg"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed (make deps)", tool)
		}
	}
	jf := newJourneyFolder(t)
	j := startJourney(t)

	j.run(t, "", "upload", "-r", jf.dir)
	j.waitForBursts(t, jf.files)
	all := j.assets(t, "")
	require.Len(t, all, jf.files)

	// Only the two real bursts became stacks.
	var stacks api.Page[api.Stack]
	nativeGet(t, j.base, j.token, "/api/stacks?limit=200", &stacks)
	require.Len(t, stacks.Data, 2, "%+v", stacks.Data)
	var got [][]string
	for _, st := range stacks.Data {
		require.Equal(t, "auto", st.Source)
		got = append(got, namesOf(all, st.AssetIDs))
	}
	slices.SortFunc(got, func(a, b []string) int { return len(a) - len(b) })
	require.Equal(t, [][]string{jf.burst2, jf.burst}, got)
	collapsed := 0
	for range j.assetsCollapsed(t) {
		collapsed++
	}
	require.Equal(t, jf.files-5-3+2, collapsed, "the default list shows each stack once")

	// Export with no filter writes every live asset, byte for byte.
	out := t.TempDir()
	r := j.run(t, "", "export", "-o", out)
	require.Contains(t, r.stdout, fmt.Sprint(jf.files))
	requireSameFiles(t, jf, out, all)

	// Export by a filter that holds the first burst.
	window := []string{"--after", "2024-04-20", "--before", "2024-05-02"}
	inWindow := j.assets(t, "local_datetime_after=2024-04-20T00:00:00&local_datetime_before=2024-05-02T00:00:00")
	require.Len(t, inWindow, 11+5, "ten archive days and the burst")
	out = t.TempDir()
	j.run(t, "", append([]string{"export", "-o", out}, window...)...)
	requireSameFiles(t, jf, out, inWindow)

	// bulk-edit by the same range rates every matching asset, members too.
	j.run(t, "", append([]string{"bulk-edit", "--rating", "4"}, window...)...)
	for _, a := range j.assets(t, "") {
		in := slices.ContainsFunc(inWindow, func(w api.Asset) bool { return w.ID == a.ID })
		if in {
			require.NotNil(t, a.Metadata.Rating, a.OriginalFileName)
			require.Equal(t, 4.0, *a.Metadata.Rating, a.OriginalFileName)
		} else if a.Metadata.Rating != nil {
			require.NotEqual(t, 4.0, *a.Metadata.Rating, a.OriginalFileName)
		}
	}

	// ls --json | (jq -r '.[].id') | trash - trashes every listed asset.
	listed := decode[[]api.Asset](t, j.run(t, "", append([]string{"ls", "--all", "--json"}, window...)...))
	require.Len(t, listed, len(inWindow))
	var ids strings.Builder
	for _, a := range listed {
		fmt.Fprintln(&ids, a.ID)
	}
	j.run(t, ids.String(), "trash", "-")
	trashed := j.assets(t, "state=trashed")
	require.ElementsMatch(t, namesOf(all, assetIDs(listed)), namesOf(trashed, assetIDs(trashed)))
	require.Len(t, j.assets(t, ""), jf.files-len(inWindow))
}

// assetsCollapsed lists the live assets in the default (collapsed) view.
func (j *journey) assetsCollapsed(t *testing.T) []api.Asset {
	t.Helper()
	var all []api.Asset
	after := ""
	for {
		var page api.Page[api.Asset]
		nativeGet(t, j.base, j.token, "/api/assets?limit=200&starting_after_id="+after, &page)
		all = append(all, page.Data...)
		if !page.HasMore {
			return all
		}
		after = page.Data[len(page.Data)-1].ID
	}
}
