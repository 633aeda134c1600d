package sniff_test

import (
	"testing"

	"github.com/photoctl/photoctl/ingest/sniff"
)

// BenchmarkDetect sniffs a JPEG, an MP4 header and text (rejected only after
// mimetype's slowest check).
func BenchmarkDetect(b *testing.B) {
	text := make([]byte, 8<<10)
	for i := range text {
		text[i] = 'a' + byte(i%26)
	}
	cases := map[string][]byte{"jpeg": encoded(b, "jpeg"), "mp4": ftyp("isom", "isom", "mp41"), "text": text}
	for name, head := range cases {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				sniff.Detect(head, "file")
			}
		})
	}
}
