package blob_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/blob"
)

func TestRedactNamesTheBlobNotWhereTheServerKeepsIt(t *testing.T) {
	root := "/srv/photoctl"
	orig, err := blob.Path(root, "originals/asset_01j0000000000000000000000a")
	require.NoError(t, err)
	cases := []struct{ name, in, want string }{
		{"an original's path becomes its key", "render " + orig + ": VipsJpeg: premature end-of-image",
			"render originals/asset_01j0000000000000000000000a: VipsJpeg: premature end-of-image"},
		{"a quoted path too", `VipsForeignLoad: "` + orig + `" is not a known file format`,
			`VipsForeignLoad: "originals/asset_01j0000000000000000000000a" is not a known file format`},
		{"another path under the root is relative", "open /srv/photoctl/tmp/upload-123: no space left on device",
			"open tmp/upload-123: no space left on device"},
		{"a path elsewhere keeps its last element", "exec /usr/bin/ffprobe: killed, reading /tmp/x/frame.png.",
			"exec ffprobe: killed, reading frame.png."},
		{"text without paths is unchanged", "image/jpeg is 60000×60000 pixels, over the limit",
			"image/jpeg is 60000×60000 pixels, over the limit"},
		{"a URL is not a path", "GET http://geo.example/api/x: 503", "GET http://geo.example/api/x: 503"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			require.Equal(t, c.want, blob.Redact(root, c.in))
		})
	}
}
