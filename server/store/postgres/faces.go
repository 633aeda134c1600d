package postgres

import (
	"context"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// faces keeps face rows. Reads leave Embedding nil: only the clustering
// job needs embeddings, through queries of its own.
type faces struct{ q conn }

var _ store.Faces = faces{}

// Faces returns the face repository.
func (r repos) Faces() store.Faces { return faces{r.q} }

// faceCols reads a face of "faces f" with its asset's media type, from a
// scalar subquery (one primary-key lookup per row; see personCols).
const faceCols = `f.id, f.asset_id, f.library_id, f.person_id, f.x, f.y, f.width, f.height, f.source,
	f.confidence, f.timestamp_ms, (SELECT fa.media_type FROM assets fa WHERE fa.id = f.asset_id),
	f.created_at, f.updated_at`

func scanFace(row scanner) (*catalog.Face, error) {
	var f catalog.Face
	var source string
	var media *string
	var created, updated int64
	err := row.Scan(&f.ID, &f.AssetID, &f.LibraryID, &f.PersonID, &f.Box.X, &f.Box.Y, &f.Box.Width,
		&f.Box.Height, &source, &f.Confidence, &f.TimestampMS, &media, &created, &updated)
	if err != nil {
		return nil, err
	}
	f.Source = catalog.FaceSource(source)
	if media != nil {
		f.AssetMediaType = catalog.MediaType(*media)
	}
	f.CreatedAt, f.UpdatedAt = fromMicros(created), fromMicros(updated)
	return &f, nil
}

func (s faces) Create(ctx context.Context, f *catalog.Face) error {
	_, err := s.q.exec(ctx, `INSERT INTO faces (id, asset_id, library_id, person_id, x, y, width, height,
		source, confidence, timestamp_ms, embedding, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		f.ID, f.AssetID, f.LibraryID, f.PersonID, f.Box.X, f.Box.Y, f.Box.Width, f.Box.Height, string(f.Source),
		f.Confidence, f.TimestampMS, f.Embedding, micros(f.CreatedAt), micros(f.UpdatedAt))
	return one("create face", f.ID, err)
}

func (s faces) Get(ctx context.Context, id string) (*catalog.Face, error) {
	f, err := scanFace(s.q.queryRow(ctx, `SELECT `+faceCols+` FROM faces f WHERE f.id = ?`, id))
	return f, one("face", id, err)
}

func (s faces) GetMany(ctx context.Context, ids []string) ([]catalog.Face, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	return s.collect(ctx, `SELECT `+faceCols+` FROM faces f WHERE f.id = ANY(?::text[])`, ids)
}

func (s faces) List(ctx context.Context, f store.FaceFilter, p store.Page) ([]catalog.Face, bool, error) {
	q := listQuery{cols: faceCols, from: "faces f", idCol: "f.id", desc: true}
	q.where, q.args = faceConditions(f)
	return page(ctx, s.q, q, p, func(rows scanner) (catalog.Face, error) {
		v, err := scanFace(rows)
		if err != nil {
			return catalog.Face{}, err
		}
		return *v, nil
	})
}

// faceConditions turns a filter into conditions over "faces f". The
// planner picks faces_asset or faces_person (few rows) over faces_library
// by their statistics, so no condition needs SQLite's unary-plus hint.
func faceConditions(f store.FaceFilter) ([]string, []any) {
	where, args := []string{"f.library_id = ?"}, []any{f.LibraryID}
	if f.AssetID != "" {
		where, args = append(where, "f.asset_id = ?"), append(args, f.AssetID)
	}
	if f.PersonID != "" {
		where, args = append(where, "f.person_id = ?"), append(args, f.PersonID)
	}
	if len(f.IDs) > 0 {
		where, args = append(where, "f.id = ANY(?::text[])"), append(args, f.IDs)
	}
	return where, args
}

func (s faces) ForAssets(ctx context.Context, assetIDs []string) ([]catalog.Face, error) {
	if len(assetIDs) == 0 {
		return nil, nil
	}
	return s.collect(ctx, `SELECT `+faceCols+` FROM faces f WHERE f.asset_id = ANY(?::text[])
		ORDER BY f.asset_id, f.id`, assetIDs)
}

func (s faces) Assign(ctx context.Context, ids []string, personID *string, now time.Time) error {
	if len(ids) == 0 {
		return nil
	}
	_, err := s.q.exec(ctx, `UPDATE faces SET person_id = ?, assigned_by = 'user', updated_at = ?
		WHERE id = ANY(?::text[])`, personID, micros(now), ids)
	return translate(err)
}

func (s faces) MoveAll(ctx context.Context, from []string, to string, now time.Time) ([]string, error) {
	if len(from) == 0 {
		return nil, nil
	}
	return queryStrings(ctx, s.q, `UPDATE faces SET person_id = ?, assigned_by = 'user', updated_at = ?
		WHERE person_id = ANY(?::text[]) RETURNING id`, to, micros(now), from)
}

func (s faces) Delete(ctx context.Context, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	_, err := s.q.exec(ctx, `DELETE FROM faces WHERE id = ANY(?::text[])`, ids)
	return translate(err)
}

// Replaceable reads the asset's machine faces through faces_asset; the
// user decisions are assigned_by and the person's source.
func (s faces) Replaceable(ctx context.Context, assetID string) ([]catalog.Face, error) {
	return s.collect(ctx, `SELECT `+faceCols+` FROM faces f WHERE f.asset_id = ? AND f.source = 'machine'
		AND f.assigned_by IS DISTINCT FROM 'user' AND (f.person_id IS NULL OR EXISTS (SELECT 1 FROM people p
		WHERE p.id = f.person_id AND p.source = 'machine')) ORDER BY f.id`, assetID)
}

// collect runs a query of faceCols and scans every row.
func (s faces) collect(ctx context.Context, query string, args ...any) ([]catalog.Face, error) {
	rows, err := s.q.query(ctx, query, args...)
	if err != nil {
		return nil, translate(err)
	}
	defer rows.Close()
	var out []catalog.Face
	for rows.Next() {
		f, err := scanFace(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, *f)
	}
	return out, translate(rows.Err())
}
