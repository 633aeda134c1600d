package describe

import (
	"bytes"
	"context"
	"image"
	"image/jpeg"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/ml"
)

func ptr[T any](v T) *T { return &v }

// face is a face of the given name centred at x, h high.
func face(name string, x, h float64) Face {
	return Face{Name: name, Box: ml.Box{X: x - h/2, Y: 0.2, Width: h, Height: h}}
}

// grey encodes a w×h JPEG of one grey level.
func grey(t *testing.T, w, h int, level uint8) []byte {
	t.Helper()
	img := image.NewGray(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = level
	}
	var buf bytes.Buffer
	require.NoError(t, jpeg.Encode(&buf, img, nil))
	return buf.Bytes()
}

func TestBuiltinComposesContentQualityAndComposition(t *testing.T) {
	evening := time.Date(2024, 5, 1, 19, 30, 0, 0, time.UTC)
	tests := []struct {
		name string
		in   Input
		want string
	}{
		{"a named close-up with place, time, text and quality", Input{Width: 1080, Height: 1440,
			Faces: []Face{face("Alice", 0.25, 0.4)}, Place: "Paris, France", Taken: evening,
			Text: "OPEN\n24 hours", Sharpness: ptr(0.8), Exposure: ptr(0.9)},
			`A close-up portrait-format photo of Alice, taken in the evening in Paris, France. ` +
				`The face is on the left of the frame. It shows the text "OPEN 24 hours". It is sharp and well exposed.`},
		{"a group with some named people, left to right", Input{Width: 1440, Height: 960,
			Faces: []Face{face("", 0.5, 0.1), face("Bob", 0.8, 0.1), face("Ann", 0.2, 0.1)},
			Taken: time.Date(2024, 5, 1, 7, 0, 0, 0, time.UTC)},
			`A landscape-format photo of three people, including Ann and Bob, taken in the morning. ` +
				`The faces are spread across the frame.`},
		{"everyone named", Input{Faces: []Face{face("Bob", 0.7, 0.1), face("Ann", 0.6, 0.1), face("Cy", 0.8, 0.1)}},
			`A photo of Ann, Bob and Cy. The faces are on the right of the frame.`},
		{"a crowd of unnamed people", Input{Width: 100, Height: 100, Faces: []Face{face("", 0.1, 0.05),
			face("", 0.2, 0.05), face("", 0.3, 0.05), face("", 0.4, 0.05), face("", 0.5, 0.05), face("", 0.9, 0.05)}},
			`A square photo of a group of six people. The faces are spread across the frame.`},
		{"one unnamed person in the centre of a video, at night", Input{Video: true, Width: 1920, Height: 1080,
			Faces: []Face{face("", 0.5, 0.1)}, Taken: time.Date(2024, 5, 1, 23, 0, 0, 0, time.UTC)},
			`A landscape-format video of one person, taken at night. The face is in the centre of the frame.`},
		{"nothing known but the place", Input{Place: "Tokyo, Japan"}, `A photo, taken in Tokyo, Japan.`},
		{"a long text is cut at a word", Input{Text: "The quick brown fox jumps over the lazy dog and keeps running far away"},
			`A photo. It shows the text "The quick brown fox jumps over the lazy dog and keeps…".`},
		{"quotes in the text become apostrophes", Input{Text: `say "cheese"`}, `A photo. It shows the text "say 'cheese'".`},
		{"blurry and dark", Input{Sharpness: ptr(0.1), Exposure: ptr(0.2), Image: grey(t, 64, 48, 20), ImageType: "image/jpeg"},
			`A photo. It is blurry and dark.`},
		{"overexposed", Input{Sharpness: ptr(0.45), Exposure: ptr(0.3), Image: grey(t, 64, 48, 245), ImageType: "image/jpeg"},
			`A photo. It is overexposed.`},
		{"badly lit without a readable image", Input{Exposure: ptr(0.3)}, `A photo. It is poorly exposed.`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Builtin{}.Describe(context.Background(), tt.in)
			require.NoError(t, err)
			require.Equal(t, tt.want, got)
			again, err := Builtin{}.Describe(context.Background(), tt.in)
			require.NoError(t, err)
			require.Equal(t, got, again, "deterministic")
		})
	}
}

func TestBuiltinHonoursACancelledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Builtin{}.Describe(ctx, Input{})
	require.ErrorIs(t, err, context.Canceled)
	require.Equal(t, "builtin", Builtin{}.Name())
}
