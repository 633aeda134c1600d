package catalog

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestBoundingBoxValidate(t *testing.T) {
	tests := []struct {
		name string
		box  BoundingBox
		bad  []string // fields reported, in order
	}{
		{"inside", BoundingBox{0.1, 0.2, 0.3, 0.4}, nil},
		{"the whole image", BoundingBox{0, 0, 1, 1}, nil},
		{"touching the far edges up to rounding", BoundingBox{0.7, 0.9, 0.3, 0.1}, nil},
		{"a corner left of the image", BoundingBox{-0.01, 0, 0.5, 0.5}, []string{"x"}},
		{"a corner on the far edge", BoundingBox{0.5, 1, 0.1, 0.1}, []string{"y", "height"}},
		{"empty", BoundingBox{0.1, 0.1, 0, 0}, []string{"width", "height"}},
		{"negative size", BoundingBox{0.1, 0.1, -0.1, 0.2}, []string{"width"}},
		{"past the right edge", BoundingBox{0.8, 0.1, 0.3, 0.2}, []string{"width"}},
		{"past the bottom edge", BoundingBox{0.1, 0.5, 0.2, 0.50001}, []string{"height"}},
		{"not finite", BoundingBox{math.NaN(), 0, math.Inf(1), 0.1}, []string{"x", "width"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.box.Validate("body", "bounding_box")
			if tt.bad == nil {
				require.NoError(t, err)
				return
			}
			var ve *ValidationError
			require.True(t, errors.As(err, &ve), "%v", err)
			var got []string
			for _, f := range ve.Fields {
				require.Equal(t, []any{"body", "bounding_box"}, f.Loc[:2])
				require.NotEmpty(t, f.Msg)
				got = append(got, f.Loc[2].(string))
			}
			require.Equal(t, tt.bad, got)
		})
	}
}

func TestCleanBirthDate(t *testing.T) {
	now := time.Date(2024, 5, 1, 23, 0, 0, 0, time.UTC)
	for _, ok := range []string{"1990-02-03", "2024-05-01", "2024-05-02"} { // already the 2nd east of UTC+1
		d, err := CleanBirthDate(ok, now, "body", "birth_date")
		require.NoError(t, err, ok)
		require.Equal(t, ok, d)
	}
	for _, bad := range []string{"2024-05-03", "1990-02-30", "1990-2-3", "03/02/1990", ""} {
		_, err := CleanBirthDate(bad, now, "body", "birth_date")
		var ve *ValidationError
		require.True(t, errors.As(err, &ve), bad)
		require.Equal(t, []any{"body", "birth_date"}, ve.Fields[0].Loc)
	}
}
