package geocode

import (
	"bytes"
	"compress/gzip"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/ingest/geocode/internal/polyindex"
)

func gzipped(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	_, err := zw.Write(b)
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	return buf.Bytes()
}

func TestLoadReportsBadData(t *testing.T) {
	oneAttr, _, err := polyindex.Build([]polyindex.Shape{{
		Rings: [][]polyindex.Point{{polyindex.Vertex(0, 0), polyindex.Vertex(1, 0), polyindex.Vertex(1, 1)}},
		Attrs: []string{"a"},
	}}, polyindex.DefaultOptions)
	require.NoError(t, err)
	cut := append([]byte(nil), placesIndex[:len(placesIndex)/2]...)
	cut = append(cut, placesIndex[len(placesIndex)-8:]...) // keep the trailer: the size still reads
	cases := []struct {
		name string
		data []byte
		msg  string
	}{
		{"nothing", nil, "too short"},
		{"not gzip", []byte("not gzip, not gzip, not gzip"), "load places"},
		{"gzip cut in the middle", cut, "load places"},
		{"gzip of something else", gzipped(t, []byte("hello, world")), "not an index"},
		{"an index of other attributes", gzipped(t, oneAttr), "attributes"},
		{"a town list that is not one", nil, "load towns"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			places, towns := c.data, townsIndex
			if c.msg == "load towns" {
				places, towns = placesIndex, gzipped(t, []byte("not a town list"))
			}
			g := &Geocoder{index: sync.OnceValues(func() (*data, error) { return openData(places, towns) })}
			require.ErrorContains(t, g.Load(), c.msg)
			require.Error(t, g.Load(), "the error is kept")
			_, ok := g.Lookup(48.8566, 2.3522)
			require.False(t, ok)
		})
	}
}
