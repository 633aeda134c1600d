package client

import "strings"

// CameraName is how people name a camera from its EXIF make and model:
// "Google" and "Pixel 8" read "Google Pixel 8", but a model that already
// starts with the make, or with the make's first word, keeps it once
// ("Canon" and "Canon EOS R5" read "Canon EOS R5", "NIKON CORPORATION" and
// "NIKON D850" read "NIKON D850"). Either may be empty.
func CameraName(maker, model string) string {
	maker, model = strings.TrimSpace(maker), strings.TrimSpace(model)
	switch {
	case maker == "":
		return model
	case model == "":
		return maker
	}
	brand, _, _ := strings.Cut(maker, " ")
	for _, prefix := range []string{maker, brand} {
		if len(model) >= len(prefix) && strings.EqualFold(model[:len(prefix)], prefix) &&
			(len(model) == len(prefix) || model[len(prefix)] == ' ') {
			return model
		}
	}
	return maker + " " + model
}
