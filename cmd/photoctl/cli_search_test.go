package main

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
)

func TestCLISearch(t *testing.T) {
	t.Parallel()
	cs := newCLIServer(t)
	cs.login(t)
	dir := photoTree(t, []string{"kyoto-temple.jpg", "beach.jpg", "market.jpg"}, nil)
	r := cs.ok(t, "", nil, "upload", dir)
	r = cs.run(t, "", nil, "ls", "--all", "--json")
	byName := map[string]string{}
	for _, a := range decode[[]api.Asset](t, r) {
		byName[a.OriginalFileName] = a.ID
	}

	r = cs.ok(t, "", nil, "search", "--query", "kyoto", "--json")
	hits := decode[[]api.SearchHit](t, r)
	require.Len(t, hits, 1)
	require.Equal(t, byName["kyoto-temple.jpg"], hits[0].ID)
	require.Positive(t, hits[0].Score)
	r = cs.ok(t, "", nil, "search", "-q", "temple")
	require.Contains(t, r.stdout, "kyoto-temple.jpg")

	// An album and a person named by name are criteria too.
	cs.ok(t, "", nil, "albums", "create", "Trip")
	cs.ok(t, "", nil, "albums", "add", "Trip", byName["beach.jpg"], byName["market.jpg"])
	cs.ok(t, "", nil, "people", "create", "Ann")
	r = cs.ok(t, "", nil, "faces", "create", "--asset", byName["market.jpg"], "--box", "0.1,0.1,0.3,0.3", "--person", "Ann")
	r = cs.run(t, "", nil, "search", "--album", "Trip", "--json")
	require.Len(t, decode[[]api.SearchHit](t, r), 2)
	r = cs.ok(t, "", nil, "search", "--album", "Trip", "--person", "Ann", "--limit", "1", "--json")
	hits = decode[[]api.SearchHit](t, r)
	require.Len(t, hits, 1)
	require.Equal(t, byName["market.jpg"], hits[0].ID)

	// A picture is a criterion; the answer is a list (possibly empty
	// without the pipeline's visual signatures).
	r = cs.ok(t, "", nil, "search", "--image", filepath.Join(dir, "beach.jpg"), "--json")
	decode[[]api.SearchHit](t, r)

	r = cs.run(t, "", nil, "search", "--media-type", "image")
	require.Equal(t, exitUsage, r.code, "no criterion: the server's 422")
	require.Contains(t, r.stderr, "422")
	r = cs.run(t, "", nil, "search", "--person", "Nobody")
	require.Equal(t, exitFailure, r.code)
	require.Contains(t, r.stderr, `no person named "Nobody"`)
	r = cs.run(t, "", nil, "search", "--image", filepath.Join(dir, "missing.jpg"))
	require.Equal(t, exitUsage, r.code)
}
