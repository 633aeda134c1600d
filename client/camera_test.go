package client

import "testing"

func TestCameraNameNamesTheMakeOnce(t *testing.T) {
	for _, c := range []struct{ make, model, want string }{
		{"Google", "Pixel 8", "Google Pixel 8"},
		{"Pixel", "Pixel 8", "Pixel 8"},
		{"Canon", "Canon EOS R5", "Canon EOS R5"},
		{"CANON", "Canon EOS R5", "Canon EOS R5"},
		{"NIKON CORPORATION", "NIKON D850", "NIKON D850"},
		{"Apple", "iPhone 15 Pro", "Apple iPhone 15 Pro"},
		{"Sony", "Sonya 1", "Sony Sonya 1"},
		{"Fujifilm", "", "Fujifilm"},
		{"", "X100V", "X100V"},
		{" ", " ", ""},
	} {
		if got := CameraName(c.make, c.model); got != c.want {
			t.Errorf("CameraName(%q, %q) = %q, want %q", c.make, c.model, got, c.want)
		}
	}
}
