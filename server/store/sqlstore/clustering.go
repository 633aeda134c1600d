package sqlstore

import (
	"context"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// clustering keeps the people clustering's tables (SQLite's migration
// 0012, PostgreSQL's 0009); their triggers mark centroids stale whenever
// a person's faces change. Embeddings and centroid sums are stored as
// their bytes (a BLOB in SQLite, bytea in PostgreSQL).
type clustering struct{ q Q }

var _ store.Clustering = clustering{}

// Clustering returns the people clustering's repository.
func (r Repos) Clustering() store.Clustering { return clustering{r.Q} }

const (
	// faceScore ranks a person's faces for the featured one (over "f").
	faceScore = `coalesce(f.confidence, 1.0) * f.width * f.height`
	// clusterFaceCols reads a store.ClusterFace (scanClusterFace).
	clusterFaceCols = `f.id, f.asset_id, f.library_id, f.person_id, f.assigned_by IS NOT DISTINCT FROM 'user',
	f.source, ` + faceScore + `, f.embedding`
	centroidCols = `person_id, library_id, sum, n, stale, version`
	centroidsSQL = `SELECT ` + centroidCols + ` FROM person_centroids WHERE library_id = ? AND version > ?`
	// The faces a cluster task places: the asset's few faces, by its index.
	pendingSQL = `SELECT ` + clusterFaceCols + ` FROM faces f WHERE f.asset_id = ?
		AND f.person_id IS NULL AND f.source = 'machine' AND f.embedding IS NOT NULL
		AND f.assigned_by IS DISTINCT FROM 'user' ORDER BY f.id`
	personFacesSQL = `SELECT ` + clusterFaceCols + ` FROM faces f WHERE f.person_id = ?
		AND f.embedding IS NOT NULL ORDER BY f.id`
	clusteredSQL = `SELECT ` + clusterFaceCols + ` FROM people p JOIN faces f ON f.person_id = p.id
		WHERE p.library_id = ? AND p.source = 'machine' AND f.embedding IS NOT NULL ORDER BY f.id`
	// Unplaced machine faces, through the partial index faces_unplaced.
	unplacedSQL = `SELECT ` + clusterFaceCols + ` FROM faces f
		WHERE f.library_id = ? AND f.person_id IS NULL AND f.source = 'machine'
		AND f.embedding IS NOT NULL AND f.assigned_by IS DISTINCT FROM 'user' ORDER BY f.id`
	featureIfBetterSQL = `UPDATE people SET thumbnail_face_id = ? WHERE id = ?
		AND thumbnail_face_id IS DISTINCT FROM ? AND NOT (` + userFeatured + `)
		AND coalesce((SELECT ` + faceScore + ` FROM faces f WHERE f.id = people.thumbnail_face_id), -1) < ?`
	featureBestSQL = `UPDATE people SET thumbnail_face_id = best.id
		FROM (SELECT f.id FROM faces f WHERE f.person_id = ? ORDER BY ` + faceScore + ` DESC, f.id LIMIT 1) best
		WHERE people.id = ? AND people.thumbnail_face_id IS DISTINCT FROM best.id AND NOT (` + userFeatured + `)`
	// userFeatured holds for a person ("people") whose featured face a user
	// chose.
	userFeatured = `people.user_thumbnail_face_id IS NOT NULL
	AND people.thumbnail_face_id IS NOT DISTINCT FROM people.user_thumbnail_face_id`
)

func scanClusterFace(row scanner) (store.ClusterFace, error) {
	var f store.ClusterFace
	var source string
	err := row.Scan(&f.ID, &f.AssetID, &f.LibraryID, &f.PersonID, &f.ByUser, &source, &f.Score, &f.Embedding)
	f.Source = catalog.FaceSource(source)
	return f, err
}

func scanCentroid(row scanner) (store.Centroid, error) {
	var c store.Centroid
	err := row.Scan(&c.PersonID, &c.LibraryID, &c.Sum, &c.N, &c.Stale, &c.Version)
	return c, err
}

func (s clustering) State(ctx context.Context, libraryID string) (store.ClusterState, error) {
	var st store.ClusterState
	var at *int64
	err := s.q.queryRow(ctx, `SELECT generation, epoch, new_faces, reclustered_at FROM clustering_state
		WHERE library_id = ?`, libraryID).Scan(&st.Generation, &st.Epoch, &st.NewFaces, &at)
	if isNoRows(err) {
		return store.ClusterState{}, nil
	}
	st.ReclusteredAt = fromNullMicros(at)
	return st, s.q.translate(err)
}

func (s clustering) Centroids(ctx context.Context, libraryID string, since int64) ([]store.Centroid, error) {
	return queryAll(ctx, s.q, scanCentroid, centroidsSQL, libraryID, since)
}

func (s clustering) Centroid(ctx context.Context, personID string) (*store.Centroid, error) {
	c, err := scanCentroid(s.q.queryRow(ctx, `SELECT `+centroidCols+` FROM person_centroids
		WHERE person_id = ?`, personID))
	if err != nil {
		return nil, s.q.one("centroid of person", personID, err)
	}
	return &c, nil
}

func (s clustering) StaleCentroids(ctx context.Context, libraryID string) ([]string, error) {
	return queryStrings(ctx, s.q, `SELECT person_id FROM person_centroids WHERE library_id = ?
		AND stale = `+s.q.d.True, libraryID)
}

func (s clustering) PutCentroid(ctx context.Context, c store.Centroid) (int64, error) {
	// The library's generation moves on as the triggers move it
	// (PostgreSQL's run this same upsert in clustering_bump).
	var gen int64
	err := s.q.queryRow(ctx, `INSERT INTO clustering_state (library_id, generation) VALUES (?, 1)
		ON CONFLICT (library_id) DO UPDATE SET generation = clustering_state.generation + 1
		RETURNING generation`, c.LibraryID).Scan(&gen)
	if err != nil {
		return 0, s.q.one("bump clustering generation of library", c.LibraryID, err)
	}
	var sum []byte // nil is NULL in both drivers
	if c.N > 0 {
		sum = c.Sum
	}
	_, err = s.q.exec(ctx, `INSERT INTO person_centroids (person_id, library_id, sum, n, stale, version)
		VALUES (?, ?, ?, ?, `+s.q.d.False+`, ?) ON CONFLICT (person_id) DO UPDATE SET sum = excluded.sum,
		n = excluded.n, stale = `+s.q.d.False+`, version = excluded.version`, c.PersonID, c.LibraryID, sum, c.N, gen)
	return gen, s.q.one("put centroid of person", c.PersonID, err)
}

func (s clustering) PendingFaces(ctx context.Context, assetID string) ([]store.ClusterFace, error) {
	return queryAll(ctx, s.q, scanClusterFace, pendingSQL, assetID)
}

func (s clustering) PersonFaces(ctx context.Context, personID string) ([]store.ClusterFace, error) {
	return queryAll(ctx, s.q, scanClusterFace, personFacesSQL, personID)
}

func (s clustering) MovableFaces(ctx context.Context, libraryID string) ([]store.ClusterFace, error) {
	clustered, err := queryAll(ctx, s.q, scanClusterFace, clusteredSQL, libraryID)
	if err != nil {
		return nil, err
	}
	unplaced, err := queryAll(ctx, s.q, scanClusterFace, unplacedSQL, libraryID)
	return append(clustered, unplaced...), err
}

func (s clustering) People(ctx context.Context, libraryID string) ([]store.ClusterPerson, error) {
	return queryAll(ctx, s.q, func(row scanner) (p store.ClusterPerson, err error) {
		err = row.Scan(&p.ID, &p.Machine, &p.FaceCount, &p.Verified)
		return p, err
	}, `SELECT id, source = 'machine', face_count, verified FROM people WHERE library_id = ? ORDER BY id`, libraryID)
}

func (s clustering) CreateCluster(ctx context.Context, p *catalog.Person) error {
	if err := (people{s.q}).Create(ctx, p); err != nil {
		return err
	}
	_, err := s.q.exec(ctx, `UPDATE people SET source = 'machine' WHERE id = ?`, p.ID)
	return s.q.one("mark machine cluster", p.ID, err)
}

// Place moves the faces still the machine's to place: not placed by a
// user, and with nobody or a machine cluster.
func (s clustering) Place(ctx context.Context, faceIDs []string, from *string, to string, now time.Time) ([]string, error) {
	if len(faceIDs) == 0 {
		return nil, nil
	}
	in, args := s.q.d.In("id", faceIDs)
	return queryStrings(ctx, s.q, `UPDATE faces SET person_id = ?, assigned_by = 'machine', updated_at = ?
		WHERE `+in+` AND person_id IS NOT DISTINCT FROM CAST(? AS text)
		AND assigned_by IS DISTINCT FROM 'user'
		AND (person_id IS NULL OR EXISTS (SELECT 1 FROM people p WHERE p.id = faces.person_id
			AND p.source = 'machine'))
		RETURNING id`, append(append([]any{to, micros(now)}, args...), from)...)
}

func (s clustering) DeleteEmpty(ctx context.Context, personIDs []string) ([]string, error) {
	if len(personIDs) == 0 {
		return nil, nil
	}
	in, args := s.q.d.In("id", personIDs)
	return queryStrings(ctx, s.q, `DELETE FROM people WHERE `+in+`
		AND source = 'machine' AND face_count = 0 RETURNING id`, args...)
}

func (s clustering) SetMachineVerified(ctx context.Context, personID string, verified bool) (bool, error) {
	return s.q.changed(s.q.exec(ctx, `UPDATE people SET verified = ? WHERE id = ? AND source = 'machine'
		AND verified <> ?`, verified, personID, verified))
}

func (s clustering) FeatureIfBetter(ctx context.Context, personID, faceID string, score float64) (bool, error) {
	return s.q.changed(s.q.exec(ctx, featureIfBetterSQL, faceID, personID, faceID, score))
}

func (s clustering) FeatureBest(ctx context.Context, personID string) (bool, error) {
	return s.q.changed(s.q.exec(ctx, featureBestSQL, personID, personID))
}

func (s clustering) Confirm(ctx context.Context, personID string) error {
	_, err := s.q.exec(ctx, `UPDATE people SET source = 'user' WHERE id = ? AND source = 'machine'`, personID)
	return s.q.one("confirm person", personID, err)
}

func (s clustering) ChooseThumbnail(ctx context.Context, personID, faceID string) error {
	res, err := s.q.exec(ctx, `UPDATE people SET user_thumbnail_face_id = ? WHERE id = ?`, faceID, personID)
	return s.q.affected("person", personID, res, err)
}

func (s clustering) CountNewFaces(ctx context.Context, libraryID string, n int) (int, error) {
	var total int
	err := s.q.queryRow(ctx, `INSERT INTO clustering_state (library_id, new_faces) VALUES (?, ?)
		ON CONFLICT (library_id) DO UPDATE SET new_faces = clustering_state.new_faces + excluded.new_faces
		RETURNING new_faces`, libraryID, n).Scan(&total)
	return total, s.q.one("count new faces of library", libraryID, err)
}

func (s clustering) Reclustered(ctx context.Context, libraryID string, at time.Time) error {
	_, err := s.q.exec(ctx, `INSERT INTO clustering_state (library_id, reclustered_at) VALUES (?, ?)
		ON CONFLICT (library_id) DO UPDATE SET new_faces = 0, reclustered_at = excluded.reclustered_at`,
		libraryID, micros(at))
	return s.q.one("record re-cluster of library", libraryID, err)
}

func (s clustering) Schedule(ctx context.Context, t *catalog.Task) error {
	var assetID *string // NULL for a library task
	if t.AssetID != "" {
		assetID = &t.AssetID
	}
	_, err := s.q.exec(ctx, `INSERT INTO tasks (id, kind, state, asset_id, library_id, subject,
		run_after, created_at) VALUES (?, ?, 'queued', ?, ?, ?, ?, ?)
		ON CONFLICT (subject, kind) WHERE state = 'queued' DO UPDATE SET run_after = excluded.run_after
		WHERE excluded.run_after < tasks.run_after`,
		t.ID, t.Kind, assetID, t.LibraryID, t.Subject(), micros(t.RunAfter), micros(t.CreatedAt))
	return s.q.one("schedule task", t.Kind, err)
}
