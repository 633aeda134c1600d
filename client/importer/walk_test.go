package importer

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestGlobs(t *testing.T) {
	tests := []struct {
		glob  string
		match []string
		not   []string
	}{
		{"*.jpg", []string{"a.jpg", "A.JPG"}, []string{"a.jpeg", "sub/a.jpg"}},
		{"raw/*", []string{"raw/a.cr2"}, []string{"raw/x/a.cr2", "a/raw/b"}},
		{"**/thumbs/**", []string{"thumbs/a.jpg", "x/thumbs/a/b.jpg"}, []string{"thumbsx/a.jpg"}},
		{"IMG_????.jpg", []string{"img_0001.jpg"}, []string{"img_01.jpg"}},
		{"[!.]*.png", []string{"a.png"}, []string{".a.png"}},
	}
	for _, tt := range tests {
		re, err := compileGlob(tt.glob)
		require.NoError(t, err, tt.glob)
		for _, m := range tt.match {
			require.True(t, re.MatchString(m), "%s should match %s", tt.glob, m)
		}
		for _, m := range tt.not {
			require.False(t, re.MatchString(m), "%s should not match %s", tt.glob, m)
		}
	}
}

func TestSidecarNames(t *testing.T) {
	names := map[string]string{"img_1.jpg.xmp": "IMG_1.JPG.xmp", "img_2.xmp": "IMG_2.xmp"}
	require.Equal(t, "IMG_1.JPG.xmp", sidecarOf("IMG_1.JPG", names))
	require.Equal(t, "IMG_2.xmp", sidecarOf("IMG_2.CR2", names))
	require.Equal(t, "", sidecarOf("IMG_3.jpg", names))
}
