package people_test

import (
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/people"
)

func TestClusteringPlacesFacesIntoPeople(t *testing.T) {
	s := startClusterServer(t, 3)
	rng := rand.New(rand.NewPCG(21, 22))
	centers := [][]float32{people.SynthCenter(rng), people.SynthCenter(rng), people.SynthCenter(rng)}
	byIdentity := make([][]string, len(centers))
	for range 4 {
		for i, c := range centers {
			_, ids := s.asset(people.SynthFace(rng, c, 0.8))
			byIdentity[i] = append(byIdentity[i], ids[0])
		}
	}
	// A group photo of all three, bigger and surer than the rest: their
	// faces become the people's featured ones.
	_, group := s.assets(0.99, [][]float32{people.SynthFace(rng, centers[0], 0.8),
		people.SynthFace(rng, centers[1], 0.8), people.SynthFace(rng, centers[2], 0.8)})
	for i, id := range group[0] {
		byIdentity[i] = append(byIdentity[i], id)
	}
	s.idle()

	t.Run("faces of one person gather and different people stay apart", func(t *testing.T) {
		var persons []string
		for i, ids := range byIdentity {
			p := s.peopleOf(ids)
			require.Len(t, p, 1, "identity %d", i)
			require.NotEmpty(t, p[0])
			require.NotContains(t, persons, p[0])
			persons = append(persons, p[0])
		}
		list := s.listPeople("")
		require.Len(t, list, 3)
		for _, p := range list {
			require.Nil(t, p.Name, "machine clusters are unnamed")
			require.Equal(t, 5, p.AssetCount)
			require.Contains(t, group[0], *p.ThumbnailFaceID, "the best face is featured")
		}
		require.Len(t, s.events("person.created"), 3)
		require.Len(t, s.events("face.updated"), 15)
	})

	t.Run("a cluster below the minimum of faces shows only with include_unverified", func(t *testing.T) {
		w := people.SynthCenter(rng)
		_, a := s.asset(people.SynthFace(rng, w, 0.8))
		_, b := s.asset(people.SynthFace(rng, w, 0.8))
		s.idle()
		p := s.peopleOf([]string{a[0], b[0]})
		require.Len(t, p, 1)
		require.Len(t, s.listPeople(""), 3)
		require.Len(t, s.listPeople("&include_unverified=true"), 4)
		r := s.Do("GET", "/api/people/"+p[0], s.token, nil)
		require.Equal(t, http.StatusOK, r.Status, "an unverified person is still readable")

		_, c := s.asset(people.SynthFace(rng, w, 0.8))
		s.idle()
		require.Equal(t, p[0], s.personOf(c[0]))
		require.Len(t, s.listPeople(""), 4, "a third face verifies it")
	})

	t.Run("a featured face a user chose stays when a better face joins", func(t *testing.T) {
		person := s.personOf(byIdentity[0][0])
		s.patch(person, map[string]any{"thumbnail_face_id": byIdentity[0][1]})
		_, better := s.assets(1, [][]float32{people.SynthFace(rng, centers[0], 0.8)})
		s.idle()
		require.Equal(t, person, s.personOf(better[0][0]))
		got := s.listPeople("&ids=" + person)
		require.Len(t, got, 1)
		require.Equal(t, byIdentity[0][1], *got[0].ThumbnailFaceID)
	})
}

func TestReclusterMergesClustersOfOnePersonButNeverUndoesUsers(t *testing.T) {
	s := startClusterServer(t, 3)
	rng := rand.New(rand.NewPCG(31, 32))
	x, y, z := people.SynthCenter(rng), people.SynthCenter(rng), people.SynthCenter(rng)

	// Two first faces of x that look little alike (cosine about 1/3) start
	// two clusters; later, clearer faces of x join one or the other.
	_, x1 := s.asset(people.SynthFace(rng, x, 0.577))
	s.idle()
	_, x2 := s.asset(people.SynthFace(rng, x, 0.577))
	s.idle()
	xs := []string{x1[0], x2[0]}
	for range 4 {
		_, ids := s.asset(people.SynthFace(rng, x, 0.9))
		xs = append(xs, ids[0])
	}
	var ys, zs []string
	for range 3 {
		_, ids := s.asset(people.SynthFace(rng, y, 0.85))
		ys = append(ys, ids[0])
		_, ids = s.asset(people.SynthFace(rng, z, 0.85))
		zs = append(zs, ids[0])
	}
	s.idle()
	before := s.peopleOf(xs)
	require.Len(t, before, 2, "x starts in two clusters")

	// A user names y's cluster, hides z's, and moves a face of x to y's.
	nina := s.peopleOf(ys)
	require.Len(t, nina, 1)
	s.patch(nina[0], map[string]any{"name": "Nina"})
	hidden := s.peopleOf(zs)
	require.Len(t, hidden, 1)
	s.patch(hidden[0], map[string]any{"is_hidden": true})
	moved := xs[len(xs)-1]
	r := s.Do("POST", "/api/people/"+nina[0]+"/reassign", s.token, map[string]any{"face_ids": []string{moved}})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)

	s.recluster()

	after := s.peopleOf(xs[:len(xs)-1])
	require.Len(t, after, 1, "x's clusters merged")
	require.Contains(t, before, after[0], "into one of them")
	gone := before[0]
	if gone == after[0] {
		gone = before[1]
	}
	require.Equal(t, http.StatusNotFound, s.Do("GET", "/api/people/"+gone, s.token, nil).Status)
	deleted := s.events("person.deleted")
	require.Len(t, deleted, 1)
	require.Equal(t, gone, deleted[0].ResourceID)
	var data map[string]string
	require.NoError(t, json.Unmarshal(deleted[0].Data, &data))
	require.Equal(t, after[0], data["merged_into"])

	require.Equal(t, nina[0], s.personOf(moved), "the user's reassignment stays")
	require.Equal(t, nina, s.peopleOf(ys), "the named person keeps its faces")
	named := s.listPeople("&ids=" + nina[0])
	require.Len(t, named, 1)
	require.Equal(t, "Nina", *named[0].Name)
	require.Equal(t, hidden, s.peopleOf(zs), "the hidden person keeps its faces")
	h := s.listPeople("&ids=" + hidden[0])
	require.Len(t, h, 1)
	require.True(t, h[0].IsHidden)

	t.Run("a second re-cluster of an unchanged library moves nothing", func(t *testing.T) {
		n := len(s.events("face.updated"))
		s.recluster()
		require.Len(t, s.events("face.updated"), n)
	})
}

func TestTwoAssetsOfANewPersonClusteredAtOnceMakeOnePerson(t *testing.T) {
	s := startClusterServer(t, 1)
	rng := rand.New(rand.NewPCG(41, 42))
	for round := range 5 {
		v := people.SynthCenter(rng)
		_, faces := s.assets(0.9, [][]float32{people.SynthFace(rng, v, 0.8)}, [][]float32{people.SynthFace(rng, v, 0.8)})
		s.idle()
		p := s.peopleOf([]string{faces[0][0], faces[1][0]})
		require.Len(t, p, 1, "round %d", round)
		require.NotEmpty(t, p[0])
	}
	require.Len(t, s.listPeople(""), 5)
}
