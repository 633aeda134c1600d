package main

import (
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

// TestCLISearchFindsPlacesAndSignsByWhatTheySay imports a folder with the
// real binary into a server running the whole pipeline (ML included): a
// photo at Cape Canaveral, one at Cape Town and a sign OCR reads as one
// run-together word. `photoctl search` finds the place by its name as a
// phrase, both capes by the shared word, the sign by a word inside it,
// and nothing for a query with a word nothing holds (exit 0, no hits).
func TestCLISearchFindsPlacesAndSignsByWhatTheySay(t *testing.T) {
	t.Parallel()
	photoctlBinary(t)
	if _, err := exec.LookPath("exiftool"); err != nil {
		t.Skip("exiftool is not installed")
	}
	s := servertest.Start(t, servertest.WithML(t))
	cs := &cliServer{Server: s, user: s.CreateUser(),
		env: append(binaryEnv(t, "XDG_CACHE_HOME="+t.TempDir(), "NO_COLOR=1"), s.DatabaseEnv()...)}
	env := cs.keyEnv(t)
	dir := photoTree(t, nil, map[string][]byte{"launch.jpg": servertest.JPEG(t, 64, 48, 7),
		"table-mountain.jpg": servertest.JPEG(t, 64, 48, 8), "sign.png": servertest.TextPNG(t, "HARVESTMOONBAKERY")})
	for name, pos := range map[string][]string{"launch.jpg": {"28.39", "N", "80.60", "W"},
		"table-mountain.jpg": {"33.925", "S", "18.424", "E"}} {
		out, err := exec.Command("exiftool", "-q", "-overwrite_original", "-GPSLatitude="+pos[0], "-GPSLatitudeRef="+pos[1],
			"-GPSLongitude="+pos[2], "-GPSLongitudeRef="+pos[3], filepath.Join(dir, name)).CombinedOutput()
		require.NoError(t, err, "exiftool: %s", out)
	}
	cs.ok(t, "", env, "upload", dir)
	cs.ok(t, "", env, "tasks", "watch", "--interval", "100ms", "--json")

	search := func(query string) []string {
		t.Helper()
		r := cs.ok(t, "", env, "search", "-q", query, "--json")
		names := []string{}
		for _, h := range decode[[]api.SearchHit](t, r) {
			names = append(names, h.OriginalFileName)
		}
		return names
	}
	require.Equal(t, []string{"launch.jpg"}, search("cape canaveral"))
	require.ElementsMatch(t, []string{"launch.jpg", "table-mountain.jpg"}, search("cape"))
	require.Equal(t, []string{"table-mountain.jpg"}, search("Cape Town"))
	require.Equal(t, []string{"sign.png"}, search("bakery"))
	require.Equal(t, []string{"sign.png"}, search("harvest moon"))
	require.Empty(t, search("cape zebra"), "a word nothing holds is not dropped")
}
