package httpapi

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite docs/openapi.json from the route table")

// openAPIFile is the committed copy of the document.
var openAPIFile = filepath.Join("..", "..", "docs", "openapi.json")

func TestOpenAPIUpToDate(t *testing.T) {
	doc, err := openAPIJSON((&Server{}).routes())
	require.NoError(t, err)
	if *update {
		require.NoError(t, os.WriteFile(openAPIFile, doc, 0o644))
		return
	}
	want, err := os.ReadFile(openAPIFile)
	require.NoError(t, err, "run: go test ./server/httpapi -run TestOpenAPIUpToDate -update")
	if diff := cmp.Diff(string(want), string(doc)); diff != "" {
		t.Fatalf("docs/openapi.json is stale; run: go test ./server/httpapi -run TestOpenAPIUpToDate -update\n(-file +generated):\n%s", diff)
	}
}

func TestOpenAPIIsDeterministic(t *testing.T) {
	first, err := openAPIJSON((&Server{}).routes())
	require.NoError(t, err)
	for range 5 {
		again, err := openAPIJSON((&Server{}).routes())
		require.NoError(t, err)
		require.True(t, bytes.Equal(first, again), "two generations differ")
	}
}
