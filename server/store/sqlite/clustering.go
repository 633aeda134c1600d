package sqlite

import (
	"context"
	"database/sql"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// clustering keeps the people clustering's tables of migration 0012; its
// triggers mark centroids stale whenever a person's faces change.
type clustering struct{ q querier }

func (r repos) Clustering() store.Clustering { return clustering{r.q} }

var _ store.Clustering = clustering{}

const (
	// faceScore ranks a person's faces for the featured one (over "f").
	faceScore = `coalesce(f.confidence, 1.0) * f.width * f.height`
	// clusterFaceCols reads a store.ClusterFace (scanClusterFace).
	clusterFaceCols = `f.id, f.asset_id, f.library_id, f.person_id, f.assigned_by IS 'user', f.source, ` +
		faceScore + `, f.embedding`
)

func scanClusterFace(rows *sql.Rows) (store.ClusterFace, error) {
	var f store.ClusterFace
	var source string
	err := rows.Scan(&f.ID, &f.AssetID, &f.LibraryID, &f.PersonID, &f.ByUser, &source, &f.Score, &f.Embedding)
	f.Source = catalog.FaceSource(source)
	return f, err
}

// collectFaces runs a query of clusterFaceCols and scans every row.
func (s clustering) collectFaces(ctx context.Context, query string, args ...any) ([]store.ClusterFace, error) {
	return queryAll(ctx, s.q, scanClusterFace, query, args...)
}

func (s clustering) State(ctx context.Context, libraryID string) (store.ClusterState, error) {
	var st store.ClusterState
	var at sql.NullInt64
	err := s.q.QueryRowContext(ctx, `SELECT generation, epoch, new_faces, reclustered_at FROM clustering_state
		WHERE library_id = ?`, libraryID).Scan(&st.Generation, &st.Epoch, &st.NewFaces, &at)
	if err == sql.ErrNoRows {
		return store.ClusterState{}, nil
	}
	st.ReclusteredAt = fromNullMicros(at)
	return st, translate(err)
}

func (s clustering) Centroids(ctx context.Context, libraryID string, since int64) ([]store.Centroid, error) {
	return queryAll(ctx, s.q, func(rows *sql.Rows) (c store.Centroid, err error) {
		err = scanCentroid(rows, &c)
		return c, err
	}, centroidsSQL, libraryID, since)
}

const (
	centroidCols = `person_id, library_id, sum, n, stale, version`
	centroidsSQL = `SELECT ` + centroidCols + ` FROM person_centroids WHERE library_id = ? AND version > ?`
	staleSQL     = `SELECT person_id FROM person_centroids WHERE library_id = ? AND stale = 1`
	// The faces a cluster task places: the asset's few faces, by its index.
	pendingSQL = `SELECT ` + clusterFaceCols + ` FROM faces f WHERE f.asset_id = ?
		AND f.person_id IS NULL AND f.source = 'machine' AND f.embedding IS NOT NULL
		AND f.assigned_by IS NOT 'user' ORDER BY f.id`
	personFacesSQL = `SELECT ` + clusterFaceCols + ` FROM faces f WHERE f.person_id = ?
		AND f.embedding IS NOT NULL ORDER BY f.id`
	clusteredSQL = `SELECT ` + clusterFaceCols + ` FROM people p JOIN faces f ON f.person_id = p.id
		WHERE p.library_id = ? AND p.source = 'machine' AND f.embedding IS NOT NULL ORDER BY f.id`
	// Unplaced machine faces, through the partial index faces_unplaced.
	unplacedSQL = `SELECT ` + clusterFaceCols + ` FROM faces f
		WHERE f.library_id = ? AND f.person_id IS NULL AND f.source = 'machine'
		AND f.embedding IS NOT NULL AND f.assigned_by IS NOT 'user' ORDER BY f.id`
	featureIfBetterSQL = `UPDATE people SET thumbnail_face_id = ? WHERE id = ?
		AND thumbnail_face_id IS NOT ? AND NOT (` + userFeatured + `)
		AND coalesce((SELECT ` + faceScore + ` FROM faces f WHERE f.id = people.thumbnail_face_id), -1) < ?`
	featureBestSQL = `UPDATE people SET thumbnail_face_id = best.id
		FROM (SELECT f.id FROM faces f WHERE f.person_id = ? ORDER BY ` + faceScore + ` DESC, f.id LIMIT 1) best
		WHERE people.id = ? AND people.thumbnail_face_id IS NOT best.id AND NOT (` + userFeatured + `)`
)

func scanCentroid(row interface{ Scan(...any) error }, c *store.Centroid) error {
	return row.Scan(&c.PersonID, &c.LibraryID, &c.Sum, &c.N, &c.Stale, &c.Version)
}

func (s clustering) Centroid(ctx context.Context, personID string) (*store.Centroid, error) {
	var c store.Centroid
	err := scanCentroid(s.q.QueryRowContext(ctx, `SELECT `+centroidCols+` FROM person_centroids
		WHERE person_id = ?`, personID), &c)
	if err != nil {
		return nil, one("centroid of person", personID, err)
	}
	return &c, nil
}

func (s clustering) StaleCentroids(ctx context.Context, libraryID string) ([]string, error) {
	return queryStrings(ctx, s.q, staleSQL, libraryID)
}

// bump moves a library's generation on and returns it.
func (s clustering) bump(ctx context.Context, libraryID string) (int64, error) {
	var gen int64
	err := s.q.QueryRowContext(ctx, `INSERT INTO clustering_state (library_id, generation) VALUES (?, 1)
		ON CONFLICT (library_id) DO UPDATE SET generation = generation + 1 RETURNING generation`,
		libraryID).Scan(&gen)
	return gen, one("bump clustering generation of library", libraryID, err)
}

func (s clustering) PutCentroid(ctx context.Context, c store.Centroid) (int64, error) {
	gen, err := s.bump(ctx, c.LibraryID)
	if err != nil {
		return 0, err
	}
	var sum any
	if c.N > 0 {
		sum = c.Sum
	}
	_, err = s.q.ExecContext(ctx, `INSERT INTO person_centroids (person_id, library_id, sum, n, stale, version)
		VALUES (?, ?, ?, ?, 0, ?) ON CONFLICT (person_id) DO UPDATE SET sum = excluded.sum, n = excluded.n,
		stale = 0, version = excluded.version`, c.PersonID, c.LibraryID, sum, c.N, gen)
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
	return queryAll(ctx, s.q, func(rows *sql.Rows) (p store.ClusterPerson, err error) {
		err = rows.Scan(&p.ID, &p.Machine, &p.FaceCount, &p.Verified)
		return p, err
	}, `SELECT id, source = 'machine', face_count, verified FROM people WHERE library_id = ? ORDER BY id`, libraryID)
}

func (s clustering) CreateCluster(ctx context.Context, p *catalog.Person) error {
	if err := (people{s.q}).Create(ctx, p); err != nil {
		return err
	}
	_, err := s.q.ExecContext(ctx, `UPDATE people SET source = 'machine' WHERE id = ?`, p.ID)
	return one("mark machine cluster", p.ID, err)
}

func (s clustering) Place(ctx context.Context, faceIDs []string, from *string, to string, now time.Time) ([]string, error) {
	if len(faceIDs) == 0 {
		return nil, nil
	}
	return queryStrings(ctx, s.q, placeSQL(len(faceIDs)),
		append(append([]any{to, micros(now)}, anySlice(faceIDs)...), from)...)
}

// placeSQL moves n faces that are still the machine's to place.
func placeSQL(n int) string {
	return `UPDATE faces SET person_id = ?, assigned_by = 'machine', updated_at = ?
		WHERE id IN (` + placeholders(n) + `) AND person_id IS ? AND assigned_by IS NOT 'user'
		AND (person_id IS NULL OR EXISTS (SELECT 1 FROM people p WHERE p.id = faces.person_id AND p.source = 'machine'))
		RETURNING id`
}

func (s clustering) DeleteEmpty(ctx context.Context, personIDs []string) ([]string, error) {
	if len(personIDs) == 0 {
		return nil, nil
	}
	return queryStrings(ctx, s.q, `DELETE FROM people WHERE id IN (`+placeholders(len(personIDs))+`)
		AND source = 'machine' AND face_count = 0 RETURNING id`, anySlice(personIDs)...)
}

// changed reports whether an UPDATE matched a row.
func changed(res sql.Result, err error) (bool, error) {
	if err != nil {
		return false, translate(err)
	}
	n, err := res.RowsAffected()
	return n > 0, translate(err)
}

func (s clustering) SetMachineVerified(ctx context.Context, personID string, verified bool) (bool, error) {
	return changed(s.q.ExecContext(ctx, `UPDATE people SET verified = ? WHERE id = ? AND source = 'machine'
		AND verified IS NOT ?`, verified, personID, verified))
}

// userFeatured holds for a person ("people") whose featured face a user chose.
const userFeatured = `people.user_thumbnail_face_id IS NOT NULL
	AND people.thumbnail_face_id IS people.user_thumbnail_face_id`

func (s clustering) FeatureIfBetter(ctx context.Context, personID, faceID string, score float64) (bool, error) {
	return changed(s.q.ExecContext(ctx, featureIfBetterSQL, faceID, personID, faceID, score))
}

func (s clustering) FeatureBest(ctx context.Context, personID string) (bool, error) {
	return changed(s.q.ExecContext(ctx, featureBestSQL, personID, personID))
}

func (s clustering) Confirm(ctx context.Context, personID string) error {
	_, err := s.q.ExecContext(ctx, `UPDATE people SET source = 'user' WHERE id = ? AND source = 'machine'`, personID)
	return one("confirm person", personID, err)
}

func (s clustering) ChooseThumbnail(ctx context.Context, personID, faceID string) error {
	res, err := s.q.ExecContext(ctx, `UPDATE people SET user_thumbnail_face_id = ? WHERE id = ?`, faceID, personID)
	return affected("person", personID, res, err)
}

func (s clustering) CountNewFaces(ctx context.Context, libraryID string, n int) (int, error) {
	var total int
	err := s.q.QueryRowContext(ctx, `INSERT INTO clustering_state (library_id, new_faces) VALUES (?, ?)
		ON CONFLICT (library_id) DO UPDATE SET new_faces = new_faces + excluded.new_faces RETURNING new_faces`,
		libraryID, n).Scan(&total)
	return total, one("count new faces of library", libraryID, err)
}

func (s clustering) Reclustered(ctx context.Context, libraryID string, at time.Time) error {
	_, err := s.q.ExecContext(ctx, `INSERT INTO clustering_state (library_id, reclustered_at) VALUES (?, ?)
		ON CONFLICT (library_id) DO UPDATE SET new_faces = 0, reclustered_at = excluded.reclustered_at`,
		libraryID, micros(at))
	return one("record re-cluster of library", libraryID, err)
}

func (s clustering) Schedule(ctx context.Context, t *catalog.Task) error {
	_, err := s.q.ExecContext(ctx, `INSERT INTO tasks (id, kind, state, asset_id, library_id, subject,
		run_after, created_at) VALUES (?, ?, 'queued', ?, ?, ?, ?, ?)
		ON CONFLICT (subject, kind) WHERE state = 'queued' DO UPDATE SET run_after = excluded.run_after
		WHERE excluded.run_after < tasks.run_after`,
		t.ID, t.Kind, nullString(t.AssetID), t.LibraryID, t.Subject(), micros(t.RunAfter), micros(t.CreatedAt))
	return one("schedule task", t.Kind, err)
}
