package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
)

func TestCLIAlbums(t *testing.T) {
	t.Parallel()
	cs := newCLIServer(t)
	cs.login(t)
	assets := uploaded(t, cs, nil, 3)
	a, b, c := assets[0].ID, assets[1].ID, assets[2].ID

	r := cs.ok(t, "", nil, "albums", "create", "--description", "by the sea", "--json", "Summer")
	album := decode[api.Album](t, r)
	require.Equal(t, "by the sea", album.Description)
	r = cs.ok(t, "", nil, "albums", "create", "summer")
	require.Contains(t, r.stdout, "Found existing album "+album.ID)

	// Assets by argument and from standard input; the album by name.
	r = cs.ok(t, "", nil, "albums", "add", "Summer", a)
	r = cs.ok(t, b+"\n"+c+"\n", nil, "albums", "add", "--json", "Summer", "-")
	require.Equal(t, 3, decode[api.Album](t, r).AssetCount)

	r = cs.ok(t, "", nil, "albums", "list", "--json")
	require.Len(t, decode[[]api.Album](t, r), 1)
	r = cs.ok(t, "", nil, "albums", "list")
	require.True(t, strings.HasPrefix(r.stdout, "ID  "), r.stdout)
	require.Contains(t, r.stdout, "Summer")

	r = cs.ok(t, "", nil, "albums", "cover", "--json", album.ID, b)
	require.Equal(t, b, *decode[api.Album](t, r).CoverAssetID)
	r = cs.run(t, "", nil, "albums", "cover", album.ID)
	require.Equal(t, exitUsage, r.code, "neither an asset nor --auto")
	r = cs.ok(t, "", nil, "albums", "cover", "--auto", album.ID)

	r = cs.ok(t, "", nil, "albums", "edit", "--name", "Summer 2024", "--clear-description", "Summer")
	r = cs.ok(t, "", nil, "albums", "remove", "--json", "Summer 2024", a)
	require.Equal(t, 2, decode[api.Album](t, r).AssetCount)
	r = cs.ok(t, "", nil, "albums", "get", "--json", "Summer 2024")
	got := decode[api.Album](t, r)
	require.Equal(t, "Summer 2024", got.Name)
	require.Empty(t, got.Description)
	r = cs.run(t, "", nil, "albums", "list", "--asset", a, "--json")
	require.Empty(t, decode[[]api.Album](t, r), "a was removed")

	// The server refuses a trashed asset (422: exit 2) and nothing is added.
	cs.ok(t, "", nil, "trash", a)
	r = cs.run(t, "", nil, "albums", "add", album.ID, a)
	require.Equal(t, exitUsage, r.code, r.stderr)
	require.Contains(t, r.stderr, "422")
	r = cs.run(t, "", nil, "albums", "edit", album.ID)
	require.Equal(t, exitUsage, r.code)
	require.Contains(t, r.stderr, "nothing to change")

	r = cs.ok(t, "", nil, "albums", "delete", "--json", album.ID)
	require.Equal(t, []string{album.ID}, decode[map[string][]string](t, r)["deleted"])
	r = cs.run(t, "", nil, "albums", "get", album.ID)
	require.Equal(t, exitFailure, r.code)
	require.Contains(t, r.stderr, "404")
	r = cs.run(t, "", nil, "albums", "get", "Summer 2024")
	require.Equal(t, exitFailure, r.code)
	require.Contains(t, r.stderr, `no album named "Summer 2024"`)
}
