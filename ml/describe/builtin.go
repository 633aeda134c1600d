package describe

import (
	"bytes"
	"context"
	"fmt"
	"image"
	_ "image/jpeg" // previews and posters
	_ "image/png"
	"slices"
	"strings"
	"unicode/utf8"

	_ "golang.org/x/image/webp" // previews
)

// Builtin composes a description from the signals in Input, without a
// model: who is in it (the number of faces and the names of named
// people), text it shows, where and at what time of day it was taken, its
// orientation, where the faces are in the frame and whether it is a
// close-up, and whether it is sharp and well exposed. The same Input
// always gives the same description; it never refuses.
type Builtin struct{}

var _ Describer = Builtin{}

// Name implements Describer.
func (Builtin) Name() string { return "builtin" }

// Thresholds of the built-in describer's words.
const (
	// closeUp is the face height, as a share of the image's, from which
	// a photo is a close-up.
	closeUp = 0.3
	// leftOf and rightOf split the frame for "on the left/right".
	leftOf, rightOf = 0.38, 0.62
	// spread is the width the faces of a group span, as a share of the
	// image's, from which they are "spread across the frame".
	spread = 0.6
	// sharp and blurry, well and poorly exposed: metrics thresholds
	// (ingest/metrics: sharpness 0.5 at a Laplacian variance of 200, about
	// 0.2 for a shaken photo; exposure 1 for a mid-range mean, clipping
	// subtracted).
	sharp, blurry         = 0.6, 0.3
	wellExposed, badlyLit = 0.75, 0.5
	// maxQuote is the longest text quoted, in characters.
	maxQuote = 60
)

// Describe implements Describer.
func (b Builtin) Describe(ctx context.Context, in Input) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	faces := slices.Clone(in.Faces)
	slices.SortStableFunc(faces, func(a, b Face) int { return compareFloat(centreX(a), centreX(b)) })

	var head strings.Builder
	head.WriteString("A ")
	if isCloseUp(faces) {
		head.WriteString("close-up ")
	}
	if f := format(in.Width, in.Height); f != "" {
		head.WriteString(f + " ")
	}
	if in.Video {
		head.WriteString("video")
	} else {
		head.WriteString("photo")
	}
	if who := subject(faces); who != "" {
		head.WriteString(" of " + who)
	}
	if when, where := timeOfDay(in), in.Place; when != "" || where != "" {
		head.WriteString(", taken")
		if when != "" {
			head.WriteString(" " + when)
		}
		if where != "" {
			head.WriteString(" in " + where)
		}
	}
	sentences := []string{head.String() + "."}
	if p := placement(faces); p != "" {
		sentences = append(sentences, p+".")
	}
	if q := quote(in.Text); q != "" {
		sentences = append(sentences, `It shows the text "`+q+`".`)
	}
	if q := quality(in); q != "" {
		sentences = append(sentences, "It is "+q+".")
	}
	return strings.Join(sentences, " "), nil
}

func centreX(f Face) float64 { return f.Box.X + f.Box.Width/2 }

func compareFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func isCloseUp(faces []Face) bool {
	for _, f := range faces {
		if f.Box.Height >= closeUp {
			return true
		}
	}
	return false
}

// subject names who is in the picture: the named people, left to right,
// and how many faces there are.
func subject(faces []Face) string {
	var names []string
	for _, f := range faces {
		if f.Name != "" && !slices.Contains(names, f.Name) {
			names = append(names, f.Name)
		}
	}
	n := len(faces)
	switch {
	case n == 0:
		return ""
	case len(names) == n:
		return list(names)
	case n == 1:
		return "one person"
	case len(names) > 0:
		return number(n) + " people, including " + list(names)
	case n <= 5:
		return number(n) + " people"
	}
	return "a group of " + number(n) + " people"
}

// list joins names as "A", "A and B", "A, B and C".
func list(names []string) string {
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

func number(n int) string {
	words := []string{"no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"}
	if n < len(words) {
		return words[n]
	}
	return fmt.Sprint(n)
}

// format words the orientation of a w×h picture.
func format(w, h int) string {
	switch {
	case w <= 0 || h <= 0:
		return ""
	case float64(w) > 1.05*float64(h):
		return "landscape-format"
	case float64(h) > 1.05*float64(w):
		return "portrait-format"
	}
	return "square"
}

// timeOfDay words the hour of the local capture time.
func timeOfDay(in Input) string {
	if in.Taken.IsZero() {
		return ""
	}
	switch h := in.Taken.UTC().Hour(); {
	case h >= 5 && h < 12:
		return "in the morning"
	case h >= 12 && h < 17:
		return "in the afternoon"
	case h >= 17 && h < 21:
		return "in the evening"
	}
	return "at night"
}

// placement says where the faces are in the frame.
func placement(faces []Face) string {
	if len(faces) == 0 {
		return ""
	}
	side := func(x float64) string {
		switch {
		case x < leftOf:
			return "on the left of the frame"
		case x > rightOf:
			return "on the right of the frame"
		}
		return "in the centre of the frame"
	}
	if len(faces) == 1 {
		return "The face is " + side(centreX(faces[0]))
	}
	left, right, mean := 1.0, 0.0, 0.0
	for _, f := range faces {
		left, right = min(left, f.Box.X), max(right, f.Box.X+f.Box.Width)
		mean += centreX(f) / float64(len(faces))
	}
	if right-left >= spread {
		return "The faces are spread across the frame"
	}
	return "The faces are " + side(mean)
}

// quote is the text read, on one line, cut at a word to maxQuote
// characters.
func quote(text string) string {
	s := strings.Join(strings.Fields(strings.ReplaceAll(text, `"`, "'")), " ")
	if utf8.RuneCountInString(s) <= maxQuote {
		return s
	}
	r := []rune(s)[:maxQuote]
	cut := string(r)
	if i := strings.LastIndexByte(cut, ' '); i > maxQuote/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,.;:") + "…"
}

// quality words sharpness and exposure; a badly lit image is "dark" or
// "overexposed" by its mean brightness when the image can be read.
func quality(in Input) string {
	var words []string
	if s := in.Sharpness; s != nil {
		switch {
		case *s >= sharp:
			words = append(words, "sharp")
		case *s < blurry:
			words = append(words, "blurry")
		}
	}
	if e := in.Exposure; e != nil {
		switch {
		case *e >= wellExposed:
			words = append(words, "well exposed")
		case *e < badlyLit:
			words = append(words, lighting(in.Image))
		}
	}
	return strings.Join(words, " and ")
}

// lighting tells a dark image from an overexposed one by its mean
// brightness.
func lighting(img []byte) string {
	m, err := meanLuma(img)
	switch {
	case err != nil:
		return "poorly exposed"
	case m < 0.5:
		return "dark"
	}
	return "overexposed"
}

// meanLuma decodes an image and returns its mean luma, 0..1, over a grid
// of at most about 10,000 pixels.
func meanLuma(buf []byte) (float64, error) {
	if len(buf) == 0 {
		return 0, fmt.Errorf("no image")
	}
	img, _, err := image.Decode(bytes.NewReader(buf))
	if err != nil {
		return 0, err
	}
	b := img.Bounds()
	step := max(1, max(b.Dx(), b.Dy())/100)
	var sum float64
	var n int
	for y := b.Min.Y; y < b.Max.Y; y += step {
		for x := b.Min.X; x < b.Max.X; x += step {
			r, g, bl, _ := img.At(x, y).RGBA()
			sum += (0.299*float64(r) + 0.587*float64(g) + 0.114*float64(bl)) / 0xffff
			n++
		}
	}
	if n == 0 {
		return 0, fmt.Errorf("empty image")
	}
	return sum / float64(n), nil
}
