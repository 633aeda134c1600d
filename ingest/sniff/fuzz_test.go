package sniff_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/photoctl/photoctl/ingest/sniff"
)

// FuzzDetect checks that Detect never panics and that whatever it accepts
// is a well-formed result in the advertised set.
func FuzzDetect(f *testing.F) {
	for _, format := range []string{"jpeg", "png", "gif"} {
		f.Add(encoded(f, format), "a."+format)
	}
	f.Add(tiff(false), "a.nef")
	f.Add(tiff(true), "a.pef")
	f.Add([]byte("FUJIFILMCCD-RAW 0201"), "a.raf")
	f.Add(ftyp("crx ", "isom"), "a.cr3")
	f.Add(ftyp("mif1", "avif"), "a.avif")
	f.Add(ftyp("heic", "mif1", "heic"), "a.heic")
	f.Add([]byte("\x00\x00\xff\xffftypisom"), "")
	f.Add([]byte("\xff\xd8\xff"), "a.jpg")
	f.Add([]byte("<html>"), "a.html")
	images, videos := sniff.MediaTypes()
	f.Fuzz(func(t *testing.T, head []byte, name string) {
		got, ok := sniff.Detect(head, name)
		if !ok {
			if got != (sniff.Result{}) {
				t.Fatalf("rejected with a non-zero result %+v", got)
			}
			return
		}
		exts := images
		switch got.Kind {
		case sniff.Image:
			if !strings.HasPrefix(got.MIME, "image/") {
				t.Fatalf("image kind with MIME %q", got.MIME)
			}
		case sniff.Video:
			exts = videos
		default:
			t.Fatalf("unknown kind %q", got.Kind)
		}
		if !slices.Contains(exts, got.Ext) {
			t.Fatalf("extension %q is not advertised for %s", got.Ext, got.Kind)
		}
	})
}
