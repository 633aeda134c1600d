package main

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
)

func TestCLIPeopleAndFaces(t *testing.T) {
	t.Parallel()
	cs := newCLIServer(t)
	env := cs.keyEnv(t) // people and faces work with an API key too
	asset := uploaded(t, cs, env, 1)[0].ID

	r := cs.ok(t, "", env, "people", "create", "--birth-date", "1990-04-01", "--json", "Ann")
	ann := decode[api.Person](t, r)
	require.Equal(t, "1990-04-01", *ann.BirthDate)
	r = cs.ok(t, "", env, "people", "create", "--json", "Bob")
	bob := decode[api.Person](t, r)

	r = cs.ok(t, "", env, "faces", "create", "--asset", asset, "--box", "0.1,0.1,0.2,0.2", "--person", "ann", "--json")
	face := decode[api.Face](t, r)
	require.Equal(t, ann.ID, *face.PersonID)
	require.Equal(t, "manual", face.Source)
	r = cs.ok(t, "", env, "faces", "create", "--asset", asset, "--box", "0.5,0.5,0.2,0.2", "--person", bob.ID)
	r = cs.run(t, "", env, "faces", "create", "--asset", asset, "--box", "0.9,0.9,0.5,0.5")
	require.Equal(t, exitUsage, r.code, "the server refuses a box outside the image: %s", r.stderr)
	require.Contains(t, r.stderr, "bounding_box")
	r = cs.run(t, "", env, "faces", "create", "--asset", asset, "--box", "0.1,0.1")
	require.Equal(t, exitUsage, r.code)

	r = cs.ok(t, "", env, "faces", "list", "--person", "Ann", "--json")
	require.Len(t, decode[[]api.Face](t, r), 1)
	r = cs.run(t, "", env, "faces", "list", "--asset", asset, "--json")
	require.Len(t, decode[[]api.Face](t, r), 2)

	r = cs.ok(t, "", env, "people", "list", "--named", "--include-unverified", "--asset", asset, "--json")
	require.Len(t, decode[[]api.Person](t, r), 2)
	r = cs.run(t, "", env, "people", "list", "--name", "bo", "--json")
	require.Equal(t, []string{bob.ID}, personIDs(decode[[]api.Person](t, r)))
	r = cs.run(t, "", env, "people", "list", "--named", "--unnamed")
	require.Equal(t, exitUsage, r.code)

	r = cs.ok(t, "", env, "people", "rename", "--json", "Ann", "Anne")
	require.Equal(t, "Anne", *decode[api.Person](t, r).Name)
	r = cs.run(t, "", env, "people", "rename", "Anne", "Bob")
	require.Equal(t, exitFailure, r.code, "another person has that name: 409")
	require.Contains(t, r.stderr, "409")
	r = cs.ok(t, "", env, "people", "hide", bob.ID)
	r = cs.run(t, "", env, "people", "list", "--no-hidden", "--json")
	require.Equal(t, []string{ann.ID}, personIDs(decode[[]api.Person](t, r)))
	r = cs.ok(t, "", env, "people", "favorite", "--json", "Anne")
	require.True(t, decode[api.Person](t, r).IsFavorite)
	r = cs.run(t, "", env, "people", "list")
	require.Contains(t, r.stdout, "favorite")
	require.Contains(t, r.stdout, "hidden")

	r = cs.ok(t, "", env, "people", "merge", "--json", "Anne", bob.ID)
	r = cs.run(t, "", env, "faces", "list", "--person", ann.ID, "--json")
	require.Len(t, decode[[]api.Face](t, r), 2, "Bob's face moved to Anne")
	r = cs.run(t, "", env, "people", "get", bob.ID)
	require.Equal(t, exitFailure, r.code, "merged people are deleted")
	require.Contains(t, r.stderr, "404")
	r = cs.ok(t, "", env, "people", "get", "--json", "Anne")
	require.Equal(t, ann.ID, decode[api.Person](t, r).ID)

	r = cs.ok(t, "", env, "faces", "delete", "--json", face.ID)
	require.Equal(t, []string{face.ID}, decode[map[string][]string](t, r)["deleted"])
	r = cs.run(t, "", env, "faces", "delete", face.ID)
	require.Equal(t, exitFailure, r.code)
	require.Contains(t, r.stderr, "404")
}

func personIDs(people []api.Person) []string {
	ids := make([]string, len(people))
	for i, p := range people {
		ids[i] = p.ID
	}
	return ids
}
