package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// clustering keeps the people clustering's tables of migration 0009; its
// triggers mark centroids stale whenever a person's faces change.
type clustering struct{ q conn }

var _ store.Clustering = clustering{}

// Clustering returns the people clustering's repository.
func (r repos) Clustering() store.Clustering { return clustering{r.q} }

const (
	// faceScore ranks a person's faces for the featured one (over "f").
	faceScore = `coalesce(f.confidence, 1.0) * f.width * f.height`
	// clusterFaceCols reads a store.ClusterFace (scanClusterFace).
	clusterFaceCols = `f.id, f.asset_id, f.library_id, f.person_id, f.assigned_by IS NOT DISTINCT FROM 'user',
	f.source, ` + faceScore + `, f.embedding`
)

func scanClusterFace(row scanner) (store.ClusterFace, error) {
	var f store.ClusterFace
	var source string
	err := row.Scan(&f.ID, &f.AssetID, &f.LibraryID, &f.PersonID, &f.ByUser, &source, &f.Score, &f.Embedding)
	f.Source = catalog.FaceSource(source)
	return f, err
}

// collectFaces runs a query of clusterFaceCols and scans every row.
func (s clustering) collectFaces(ctx context.Context, query string, args ...any) ([]store.ClusterFace, error) {
	return queryAll(ctx, s.q, scanClusterFace, query, args...)
}

func (s clustering) State(ctx context.Context, libraryID string) (store.ClusterState, error) {
	var st store.ClusterState
	var at *int64
	err := s.q.queryRow(ctx, `SELECT generation, epoch, new_faces, reclustered_at FROM clustering_state
		WHERE library_id = ?`, libraryID).Scan(&st.Generation, &st.Epoch, &st.NewFaces, &at)
	if errNoRows(err) {
		return store.ClusterState{}, nil
	}
	st.ReclusteredAt = fromNullMicros(at)
	return st, translate(err)
}

const (
	centroidCols = `person_id, library_id, sum, n, stale, version`
	centroidsSQL = `SELECT ` + centroidCols + ` FROM person_centroids WHERE library_id = ? AND version > ?`
	staleSQL     = `SELECT person_id FROM person_centroids WHERE library_id = ? AND stale`
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

func scanCentroid(row scanner, c *store.Centroid) error {
	return row.Scan(&c.PersonID, &c.LibraryID, &c.Sum, &c.N, &c.Stale, &c.Version)
}

func (s clustering) Centroids(ctx context.Context, libraryID string, since int64) ([]store.Centroid, error) {
	return queryAll(ctx, s.q, func(row scanner) (c store.Centroid, err error) {
		err = scanCentroid(row, &c)
		return c, err
	}, centroidsSQL, libraryID, since)
}

func (s clustering) Centroid(ctx context.Context, personID string) (*store.Centroid, error) {
	var c store.Centroid
	err := scanCentroid(s.q.queryRow(ctx, `SELECT `+centroidCols+` FROM person_centroids
		WHERE person_id = ?`, personID), &c)
	if err != nil {
		return nil, one("centroid of person", personID, err)
	}
	return &c, nil
}

func (s clustering) StaleCentroids(ctx context.Context, libraryID string) ([]string, error) {
	return queryStrings(ctx, s.q, staleSQL, libraryID)
}

func (s clustering) PutCentroid(ctx context.Context, c store.Centroid) (int64, error) {
	// clustering_bump (0009) moves the library's generation on, as the
	// triggers do.
	var gen int64
	if err := s.q.queryRow(ctx, `SELECT clustering_bump(?)`, c.LibraryID).Scan(&gen); err != nil {
		return 0, one("bump clustering generation of library", c.LibraryID, err)
	}
	var sum []byte
	if c.N > 0 {
		sum = c.Sum
	}
	_, err := s.q.exec(ctx, `INSERT INTO person_centroids (person_id, library_id, sum, n, stale, version)
		VALUES (?, ?, ?, ?, false, ?) ON CONFLICT (person_id) DO UPDATE SET sum = excluded.sum, n = excluded.n,
		stale = false, version = excluded.version`, c.PersonID, c.LibraryID, sum, c.N, gen)
	return gen, one("put centroid of person", c.PersonID, err)
}

func (s clustering) PendingFaces(ctx context.Context, assetID string) ([]store.ClusterFace, error) {
	return s.collectFaces(ctx, pendingSQL, assetID)
}

func (s clustering) PersonFaces(ctx context.Context, personID string) ([]store.ClusterFace, error) {
	return s.collectFaces(ctx, personFacesSQL, personID)
}

func (s clustering) MovableFaces(ctx context.Context, libraryID string) ([]store.ClusterFace, error) {
	clustered, err := s.collectFaces(ctx, clusteredSQL, libraryID)
	if err != nil {
		return nil, err
	}
	unplaced, err := s.collectFaces(ctx, unplacedSQL, libraryID)
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
	return one("mark machine cluster", p.ID, err)
}

// Place moves the faces still the machine's to place: not placed by a
// user, and with nobody or a machine cluster.
func (s clustering) Place(ctx context.Context, faceIDs []string, from *string, to string, now time.Time) ([]string, error) {
	if len(faceIDs) == 0 {
		return nil, nil
	}
	return queryStrings(ctx, s.q, `UPDATE faces SET person_id = ?, assigned_by = 'machine', updated_at = ?
		WHERE id = ANY(?::text[]) AND person_id IS NOT DISTINCT FROM ?::text
		AND assigned_by IS DISTINCT FROM 'user'
		AND (person_id IS NULL OR EXISTS (SELECT 1 FROM people p WHERE p.id = faces.person_id
			AND p.source = 'machine'))
		RETURNING id`, to, micros(now), faceIDs, from)
}

func (s clustering) DeleteEmpty(ctx context.Context, personIDs []string) ([]string, error) {
	if len(personIDs) == 0 {
		return nil, nil
	}
	return queryStrings(ctx, s.q, `DELETE FROM people WHERE id = ANY(?::text[])
		AND source = 'machine' AND face_count = 0 RETURNING id`, personIDs)
}

// changed reports whether an UPDATE matched a row.
func changed(tag pgconn.CommandTag, err error) (bool, error) {
	if err != nil {
		return false, translate(err)
	}
	return tag.RowsAffected() > 0, nil
}

func (s clustering) SetMachineVerified(ctx context.Context, personID string, verified bool) (bool, error) {
	return changed(s.q.exec(ctx, `UPDATE people SET verified = ? WHERE id = ? AND source = 'machine'
		AND verified <> ?`, verified, personID, verified))
}

func (s clustering) FeatureIfBetter(ctx context.Context, personID, faceID string, score float64) (bool, error) {
	return changed(s.q.exec(ctx, featureIfBetterSQL, faceID, personID, faceID, score))
}

func (s clustering) FeatureBest(ctx context.Context, personID string) (bool, error) {
	return changed(s.q.exec(ctx, featureBestSQL, personID, personID))
}

func (s clustering) Confirm(ctx context.Context, personID string) error {
	_, err := s.q.exec(ctx, `UPDATE people SET source = 'user' WHERE id = ? AND source = 'machine'`, personID)
	return one("confirm person", personID, err)
}

func (s clustering) ChooseThumbnail(ctx context.Context, personID, faceID string) error {
	tag, err := s.q.exec(ctx, `UPDATE people SET user_thumbnail_face_id = ? WHERE id = ?`, faceID, personID)
	return affected("person", personID, tag, err)
}

func (s clustering) CountNewFaces(ctx context.Context, libraryID string, n int) (int, error) {
	var total int
	err := s.q.queryRow(ctx, `INSERT INTO clustering_state (library_id, new_faces) VALUES (?, ?)
		ON CONFLICT (library_id) DO UPDATE SET new_faces = clustering_state.new_faces + excluded.new_faces
		RETURNING new_faces`, libraryID, n).Scan(&total)
	return total, one("count new faces of library", libraryID, err)
}

func (s clustering) Reclustered(ctx context.Context, libraryID string, at time.Time) error {
	_, err := s.q.exec(ctx, `INSERT INTO clustering_state (library_id, reclustered_at) VALUES (?, ?)
		ON CONFLICT (library_id) DO UPDATE SET new_faces = 0, reclustered_at = excluded.reclustered_at`,
		libraryID, micros(at))
	return one("record re-cluster of library", libraryID, err)
}

func (s clustering) Schedule(ctx context.Context, t *catalog.Task) error {
	var assetID *string
	if t.AssetID != "" {
		assetID = &t.AssetID
	}
	_, err := s.q.exec(ctx, `INSERT INTO tasks (id, kind, state, asset_id, library_id, subject,
		run_after, created_at) VALUES (?, ?, 'queued', ?, ?, ?, ?, ?)
		ON CONFLICT (subject, kind) WHERE state = 'queued' DO UPDATE SET run_after = excluded.run_after
		WHERE excluded.run_after < tasks.run_after`,
		t.ID, t.Kind, assetID, t.LibraryID, t.Subject(), micros(t.RunAfter), micros(t.CreatedAt))
	return one("schedule task", t.Kind, err)
}
