package people_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/people"
	"github.com/photoctl/photoctl/server/servertest"
	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/tasks"
)

// clusterServer is a real server whose two workers run the cluster and
// recluster tasks, with a second handle on its database: the tests put
// faces in as the faces step would (machine faces with embeddings, no
// person) and queue the cluster task it would chain to.
type clusterServer struct {
	*servertest.Server
	t            *testing.T
	ctx          context.Context
	user         servertest.User
	token, lib   string
	st           store.Store
	n            int
	reclustering int
}

func startClusterServer(t *testing.T, minFaces int) *clusterServer {
	t.Helper()
	s := servertest.Start(t, servertest.WithPipeline, func(c *app.Config) {
		c.People.MinFaces = minFaces
		c.People.ReclusterInterval = 24 * time.Hour // only the tests re-cluster
		c.People.ReclusterBurst = 1 << 20
	})
	u, token := s.Session()
	st := servertest.OpenStore(t, s.Config) // the server's own database, SQLite or PostgreSQL
	return &clusterServer{Server: s, t: t, ctx: context.Background(), user: u, token: token,
		lib: s.Libraries(token)[0].ID, st: st}
}

// asset adds an asset with a machine face per vector (confidence 0.9)
// and queues its cluster task, as the faces step does; it returns the
// asset and the face ids.
func (s *clusterServer) asset(vecs ...[]float32) (string, []string) {
	s.t.Helper()
	assets, faces := s.assets(0.9, vecs)
	return assets[0], faces[0]
}

// assets adds assets in one transaction, each with a machine face (of
// confidence conf) per vector, and queues their cluster tasks together.
func (s *clusterServer) assets(conf float64, perAsset ...[][]float32) ([]string, [][]string) {
	s.t.Helper()
	var assetIDs []string
	var faceIDs [][]string
	now := time.Now().UTC()
	require.NoError(s.t, s.st.InTx(s.ctx, func(r store.Repos) error {
		for _, vecs := range perAsset {
			s.n++
			sum := sha256.Sum256(fmt.Append(nil, s.t.Name(), s.n))
			a := &catalog.Asset{ID: catalog.NewID(catalog.PrefixAsset, now), LibraryID: s.lib,
				ContributorID: s.user.ID, MediaType: catalog.MediaImage, MIMEType: "image/jpeg",
				OriginalFileName: fmt.Sprintf("p%d.jpg", s.n), FileCreatedAt: now, FileModifiedAt: now,
				Capture: catalog.CaptureTime{Wall: now}, Checksum: sum[:], OriginalSize: 1, FileSizeBytes: 1,
				CreatedAt: now, UpdatedAt: now}
			if err := r.Assets().Create(s.ctx, a); err != nil {
				return err
			}
			var ids []string
			for i, v := range vecs {
				f := &catalog.Face{ID: catalog.NewID(catalog.PrefixFace, now), AssetID: a.ID, LibraryID: s.lib,
					Source: catalog.FaceMachine, Confidence: &conf, Embedding: people.EncodeEmbedding(v),
					Box:       catalog.BoundingBox{X: 0.2 * float64(i), Y: 0.1, Width: 0.15, Height: 0.2},
					CreatedAt: now, UpdatedAt: now}
				if err := r.Faces().Create(s.ctx, f); err != nil {
					return err
				}
				ids = append(ids, f.ID)
			}
			if err := tasks.Enqueue(s.ctx, r, "cluster", a.ID, s.lib, now); err != nil {
				return err
			}
			assetIDs, faceIDs = append(assetIDs, a.ID), append(faceIDs, ids)
		}
		return nil
	}))
	return assetIDs, faceIDs
}

// idle waits until no cluster task is queued or running.
func (s *clusterServer) idle() {
	s.t.Helper()
	s.waitTasks("cluster", func(list []api.Task) bool {
		for _, task := range list {
			if task.State == "queued" || task.State == "running" {
				return false
			}
		}
		return true
	})
}

// recluster brings the library's re-cluster forward to now and waits
// until it has run.
func (s *clusterServer) recluster() {
	s.t.Helper()
	s.idle()
	now := time.Now().UTC()
	require.NoError(s.t, s.st.InTx(s.ctx, func(r store.Repos) error {
		return r.Clustering().Schedule(s.ctx, &catalog.Task{ID: catalog.NewID(catalog.PrefixTask, now),
			Kind: people.KindRecluster, LibraryID: s.lib, RunAfter: now, CreatedAt: now})
	}))
	s.reclustering++
	s.waitTasks(people.KindRecluster, func(list []api.Task) bool {
		done := 0
		for _, task := range list {
			require.NotEqual(s.t, "failed", task.State, "re-cluster: %v", task.Error)
			if task.State == "succeeded" {
				done++
			}
		}
		return done == s.reclustering
	})
}

func (s *clusterServer) waitTasks(kind string, done func([]api.Task) bool) {
	s.t.Helper()
	deadline := time.Now().Add(60 * time.Second) // bounds a hung runner only
	for {
		list := servertest.List[api.Task](s.Server, s.token, "/api/tasks?limit=200&kind="+kind)
		if done(list) {
			return
		}
		require.True(s.t, time.Now().Before(deadline), "%s tasks still pending: %+v", kind, list)
		time.Sleep(50 * time.Millisecond)
	}
}

// personOf returns the person of a face through the API ("" for none).
func (s *clusterServer) personOf(faceID string) string {
	s.t.Helper()
	list := servertest.List[api.Face](s.Server, s.token, "/api/faces?ids="+faceID)
	require.Len(s.t, list, 1)
	if list[0].PersonID == nil {
		return ""
	}
	return *list[0].PersonID
}

// peopleOf returns the distinct people of faces, in order of first
// appearance ("" for a face without one).
func (s *clusterServer) peopleOf(faceIDs []string) []string {
	s.t.Helper()
	var out []string
	seen := map[string]bool{}
	for _, id := range faceIDs {
		if p := s.personOf(id); !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

func (s *clusterServer) listPeople(query string) []api.Person {
	s.t.Helper()
	return servertest.List[api.Person](s.Server, s.token, "/api/people?limit=200"+query)
}

func (s *clusterServer) patch(personID string, body map[string]any) {
	s.t.Helper()
	r := s.Do("PATCH", "/api/people/"+personID, s.token, body)
	require.Equal(s.t, http.StatusOK, r.Status, "%s", r.Body)
}

// events returns the library's events of a type.
func (s *clusterServer) events(typ string) []api.Event {
	s.t.Helper()
	var out []api.Event
	after := ""
	for {
		path := "/api/events?limit=200&library_id=" + s.lib
		if after != "" {
			path += "&starting_after_id=" + after
		}
		r := s.Do("GET", path, s.token, nil)
		require.Equal(s.t, http.StatusOK, r.Status, "%s", r.Body)
		var page api.Page[api.Event]
		r.JSON(s.t, &page)
		for _, e := range page.Data {
			if e.Type == typ {
				out = append(out, e)
			}
			after = e.ID
		}
		if !page.HasMore {
			return out
		}
	}
}
