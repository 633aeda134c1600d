package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/servertest"
)

// TestCLIGetShowsTheTextOCRRead uploads a picture of a sign to a server
// running the pipeline with the ML models: `photoctl get` shows the text
// the ocr step read, and --json carries it as ocr_text.
func TestCLIGetShowsTheTextOCRRead(t *testing.T) {
	t.Parallel()
	models := mlModels(t)
	photoctlBinary(t)
	s := servertest.Start(t, func(c *app.Config) {
		servertest.WithPipeline(c)
		c.ML.Dir = models
	})
	cs := &cliServer{Server: s, user: s.CreateUser(),
		env: append(binaryEnv(t, "XDG_CACHE_HOME="+t.TempDir(), "NO_COLOR=1"), s.DatabaseEnv()...)}
	env := cs.keyEnv(t)
	dir := photoTree(t, nil, map[string][]byte{"sign.png": servertest.TextPNG(t, "HARBOUR CAFE", "Open daily 1987")})
	r := cs.ok(t, "", env, "upload", dir)
	r = cs.ok(t, "", env, "tasks", "watch", "--interval", "100ms", "--json")
	list := decode[[]api.Asset](t, cs.run(t, "", env, "ls", "--json"))
	require.Len(t, list, 1)

	// The model sometimes runs two words together: compare the letters.
	letters := func(s string) string { return strings.NewReplacer(" ", "", "/", "").Replace(s) }
	r = cs.ok(t, "", env, "get", list[0].ID)
	var text string
	for _, line := range strings.Split(r.stdout, "\n") {
		if rest, ok := strings.CutPrefix(line, "text"); ok {
			text = strings.TrimSpace(rest)
		}
	}
	require.Equal(t, letters("HARBOUR CAFE / Open daily 1987"), letters(text), r.stdout)
	got := decode[api.AssetDetail](t, cs.run(t, "", env, "get", list[0].ID, "--json"))
	require.NotNil(t, got.OCRText)
	require.Equal(t, letters("HARBOUR CAFE / Open daily 1987"), letters(strings.ReplaceAll(*got.OCRText, "\n", "")))
}
