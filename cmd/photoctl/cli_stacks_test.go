package main

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
)

func TestCLIStacks(t *testing.T) {
	t.Parallel()
	cs := newCLIServer(t)
	cs.login(t)
	assets := uploaded(t, cs, nil, 4)
	a, b, c, d := assets[0].ID, assets[1].ID, assets[2].ID, assets[3].ID

	r := cs.ok(t, "", nil, "stacks", "create", "--cover", b, "--json", a, b)
	st := decode[api.Stack](t, r)
	require.Equal(t, b, st.CoverAssetID)
	r = cs.run(t, "", nil, "stacks", "create", a, c)
	require.Equal(t, exitFailure, r.code, "a is in a stack already: 409")
	require.Contains(t, r.stderr, "409")
	r = cs.run(t, "", nil, "stacks", "create", "--cover", d, a, c)
	require.Equal(t, exitUsage, r.code, "the cover must be one of them: 422")

	r = cs.ok(t, "", nil, "stacks", "edit", "--add", c+","+d, "--cover", c, "--json", st.ID)
	require.Equal(t, 4, decode[api.Stack](t, r).AssetCount)
	r = cs.ok(t, "", nil, "stacks", "list", "--json")
	require.Len(t, decode[[]api.Stack](t, r), 1)
	r = cs.run(t, "", nil, "ls", "--covers-only", "--json")
	require.Len(t, decode[[]api.Asset](t, r), 1, "the stack lists as one")
	r = cs.run(t, "", nil, "ls", "--json")
	require.Len(t, decode[[]api.Asset](t, r), 4, "every member lists")
	r = cs.run(t, "", nil, "stacks", "edit", "--add", a, "--remove", a, st.ID)
	require.Equal(t, exitUsage, r.code, "an id in both lists is a 422")

	r = cs.ok(t, "", nil, "stacks", "edit", "--remove", a, "--remove", b, "--remove", c, "--json", st.ID)
	require.Equal(t, map[string]any{"id": st.ID, "dissolved": true}, decode[map[string]any](t, r))
	r = cs.run(t, "", nil, "stacks", "get", st.ID)
	require.Equal(t, exitFailure, r.code)
	require.Contains(t, r.stderr, "404")

	r = cs.ok(t, a+" "+b+"\n", nil, "stacks", "create", "--json", "-")
	st = decode[api.Stack](t, r)
	r = cs.run(t, "", nil, "stacks", "get", "--json", st.ID)
	require.ElementsMatch(t, []string{a, b}, decode[api.Stack](t, r).AssetIDs)
	r = cs.ok(t, "", nil, "stacks", "delete", st.ID)
	require.Contains(t, r.stdout, "Deleted 1 stack(s).")
	r = cs.run(t, "", nil, "stacks", "list", "--json")
	require.Empty(t, decode[[]api.Stack](t, r))
}
