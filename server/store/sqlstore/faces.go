package sqlstore

import (
	"context"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// faces keeps face rows. Reads leave Embedding nil: only the clustering
// job needs embeddings, through queries of its own. An embedding is
// stored as its bytes (a BLOB in SQLite, bytea in PostgreSQL).
type faces struct{ q Q }

var _ store.Faces = faces{}

// Faces returns the face repository.
func (r Repos) Faces() store.Faces { return faces{r.Q} }

// faceRead is how a face of "faces f" is read with its asset's media
// type: the select list, and the FROM clause.
func faceRead(d *Dialect) (cols, from string) {
	media, from := `fa.media_type`, `faces f JOIN assets fa ON fa.id = f.asset_id`
	if d.ScalarLookups {
		media, from = `(SELECT fa.media_type FROM assets fa WHERE fa.id = f.asset_id)`, `faces f`
	}
	return `f.id, f.asset_id, f.library_id, f.person_id, f.x, f.y, f.width, f.height, f.source,
	f.confidence, f.timestamp_ms, ` + media + `, f.created_at, f.updated_at`, from
}

// selectFaces is the start of a query of faces: SELECT the face's columns
// FROM "faces f" and its joins.
func (s faces) selectFaces() string {
	cols, from := faceRead(s.q.d)
	return `SELECT ` + cols + ` FROM ` + from
}

func scanFace(row scanner) (catalog.Face, error) {
	var f catalog.Face
	var source string
	var media *string
	var created, updated int64
	err := row.Scan(&f.ID, &f.AssetID, &f.LibraryID, &f.PersonID, &f.Box.X, &f.Box.Y, &f.Box.Width,
		&f.Box.Height, &source, &f.Confidence, &f.TimestampMS, &media, &created, &updated)
	if err != nil {
		return catalog.Face{}, err
	}
	f.Source = catalog.FaceSource(source)
	if media != nil {
		f.AssetMediaType = catalog.MediaType(*media)
	}
	f.CreatedAt, f.UpdatedAt = fromMicros(created), fromMicros(updated)
	return f, nil
}

func (s faces) Create(ctx context.Context, f *catalog.Face) error {
	_, err := s.q.exec(ctx, `INSERT INTO faces (id, asset_id, library_id, person_id, x, y, width, height,
		source, confidence, timestamp_ms, embedding, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		f.ID, f.AssetID, f.LibraryID, f.PersonID, f.Box.X, f.Box.Y, f.Box.Width, f.Box.Height, string(f.Source),
		f.Confidence, f.TimestampMS, f.Embedding, micros(f.CreatedAt), micros(f.UpdatedAt))
	return s.q.one("create face", f.ID, err)
}

func (s faces) Get(ctx context.Context, id string) (*catalog.Face, error) {
	f, err := scanFace(s.q.queryRow(ctx, s.selectFaces()+` WHERE f.id = ?`, id))
	if err != nil {
		return nil, s.q.one("face", id, err)
	}
	return &f, nil
}

func (s faces) GetMany(ctx context.Context, ids []string) ([]catalog.Face, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	in, args := s.q.d.In("f.id", ids)
	return queryAll(ctx, s.q, scanFace, s.selectFaces()+` WHERE `+in, args...)
}

func (s faces) List(ctx context.Context, f query.FaceFilter, p query.Page) ([]catalog.Face, bool, error) {
	cols, from := faceRead(s.q.d)
	q := listQuery{cols: cols, from: from, idCol: "f.id", desc: true}
	q.where, q.args = faceConditions(s.q.d, f)
	return page(ctx, s.q, q, p, scanFace)
}

// faceConditions turns a filter into conditions over "faces f". With an
// asset or a person, the library test is kept off its index (Unindexed) so
// that the planner walks that asset's or person's index (few rows) rather
// than the whole library's.
func faceConditions(d *Dialect, f query.FaceFilter) ([]string, []any) {
	lib := "f.library_id = ?"
	if f.AssetID != "" || f.PersonID != "" {
		lib = d.Unindexed("f.library_id") + " = ?"
	}
	where, args := []string{lib}, []any{f.LibraryID}
	switch {
	case f.AssetID != "":
		where, args = append(where, "f.asset_id = ?"), append(args, f.AssetID)
		if f.PersonID != "" {
			where, args = append(where, d.Unindexed("f.person_id")+" = ?"), append(args, f.PersonID)
		}
	case f.PersonID != "":
		where, args = append(where, "f.person_id = ?"), append(args, f.PersonID)
	}
	if len(f.IDs) > 0 {
		in, a := d.In("f.id", f.IDs)
		where, args = append(where, in), append(args, a...)
	}
	return where, args
}

func (s faces) ForAssets(ctx context.Context, assetIDs []string) ([]catalog.Face, error) {
	if len(assetIDs) == 0 {
		return nil, nil
	}
	in, args := s.q.d.In("f.asset_id", assetIDs)
	return queryAll(ctx, s.q, scanFace, s.selectFaces()+` WHERE `+in+` ORDER BY f.asset_id, f.id`, args...)
}

func (s faces) Assign(ctx context.Context, ids []string, personID *string, now time.Time) error {
	if len(ids) == 0 {
		return nil
	}
	in, args := s.q.d.In("id", ids)
	_, err := s.q.exec(ctx, `UPDATE faces SET person_id = ?, assigned_by = 'user', updated_at = ? WHERE `+in,
		append([]any{personID, micros(now)}, args...)...)
	return s.q.translate(err)
}

func (s faces) MoveAll(ctx context.Context, from []string, to string, now time.Time) ([]string, error) {
	if len(from) == 0 {
		return nil, nil
	}
	in, args := s.q.d.In("person_id", from)
	return queryStrings(ctx, s.q, `UPDATE faces SET person_id = ?, assigned_by = 'user', updated_at = ?
		WHERE `+in+` RETURNING id`, append([]any{to, micros(now)}, args...)...)
}

func (s faces) Delete(ctx context.Context, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	in, args := s.q.d.In("id", ids)
	_, err := s.q.exec(ctx, `DELETE FROM faces WHERE `+in, args...)
	return s.q.translate(err)
}

// Replaceable reads the asset's machine faces through faces_asset; the
// user decisions are assigned_by and the person's source.
func (s faces) Replaceable(ctx context.Context, assetID string) ([]catalog.Face, error) {
	return queryAll(ctx, s.q, scanFace, s.selectFaces()+` WHERE f.asset_id = ? AND f.source = 'machine'
		AND f.assigned_by IS DISTINCT FROM 'user' AND (f.person_id IS NULL OR EXISTS (SELECT 1 FROM people p
		WHERE p.id = f.person_id AND p.source = 'machine')) ORDER BY f.id`, assetID)
}
