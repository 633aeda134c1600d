package exif

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
)

// ErrNoEmbeddedImage is returned by EmbeddedImage for a file that holds no
// JPEG image of its own.
var ErrNoEmbeddedImage = errors.New("exif: no embedded JPEG image")

// embeddedTags are the tags exiftool names JPEG images embedded in a file:
// the full-size JPEG and the preview cameras write into RAW files, a third
// image some write, and the EXIF thumbnail.
var embeddedTags = []string{"JpgFromRaw", "PreviewImage", "OtherImage", "ThumbnailImage"}

// EmbeddedImage returns the largest JPEG embedded in the file at path —
// for a camera RAW file the full-size JpgFromRaw or the PreviewImage, else
// the EXIF thumbnail — for formats no decoder here can read. The image
// keeps whatever metadata it carries; its orientation is usually the RAW
// file's, which Read reports.
//
// It runs on a process of its own that prints binary tags, started on the
// first call and stopped by Close, with the timeout and errors of Read;
// a file without one is ErrNoEmbeddedImage.
func (p *Pool) EmbeddedImage(ctx context.Context, path string) ([]byte, error) {
	files, err := arguments(path, "")
	if err != nil {
		return nil, fmt.Errorf("read embedded image: %w", err)
	}
	fms, err := p.embedded.extract(ctx, files)
	if err != nil {
		return nil, fmt.Errorf("read embedded image of %s: %w", path, err)
	}
	fm := fms[0]
	if fm.Err != nil {
		return nil, fmt.Errorf("read embedded image of %s: %w", path, fm.Err)
	}
	if msg, ok := text(fm.Fields["Error"]); ok {
		return nil, fmt.Errorf("read embedded image of %s: %s: %w", path, msg, ErrUnreadable)
	}
	var best []byte
	for _, tag := range embeddedTags {
		s, ok := fm.Fields[tag].(string)
		if !ok || !strings.HasPrefix(s, "base64:") {
			continue
		}
		img, err := base64.StdEncoding.DecodeString(s[len("base64:"):])
		if err == nil && bytes.HasPrefix(img, []byte{0xff, 0xd8, 0xff}) && len(img) > len(best) {
			best = img
		}
	}
	if best == nil {
		return nil, fmt.Errorf("read embedded image of %s: %w", path, ErrNoEmbeddedImage)
	}
	return best, nil
}
