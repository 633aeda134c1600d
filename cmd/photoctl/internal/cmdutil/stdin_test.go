package cmdutil

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func TestReadStdinIDsTakesWordsOrAJSONArray(t *testing.T) {
	for stdin, want := range map[string]string{
		"asset_1\nasset_2 asset_3\n":        "asset_1 asset_2 asset_3",
		` [{"id":"asset_1"}, "asset_2"] `:   "asset_1 asset_2",
		"":                                  "",
		`[{"id":"asset_1","name":"a.jpg"}]`: "asset_1",
	} {
		ids, err := ReadStdinIDs(strings.NewReader(stdin))
		if err != nil || strings.Join(ids, " ") != want {
			t.Errorf("%q: got %q, %v; want %q", stdin, ids, err, want)
		}
	}
	for _, stdin := range []string{`[{"name":"a"}]`, `[1,`, `[{"id":""}]`} {
		var usage *UsageError
		if _, err := ReadStdinIDs(strings.NewReader(stdin)); !errors.As(err, &usage) {
			t.Errorf("%q: got %v, want a usage error", stdin, err)
		}
	}
}

func TestConfirmTakesOnlyYes(t *testing.T) {
	for answer, want := range map[string]bool{"y\n": true, "YES\n": true, " yes ": true, "n\n": false, "\n": false, "": false, "sure\n": false} {
		var errOut bytes.Buffer
		ok, err := Confirm(strings.NewReader(answer), &Streams{Err: &errOut}, "Delete? ")
		if err != nil || ok != want {
			t.Errorf("%q: got %v, %v; want %v", answer, ok, err, want)
		}
		if !strings.HasPrefix(errOut.String(), "Delete? ") {
			t.Errorf("%q: asked %q", answer, errOut.String())
		}
	}
}
