package sqlite

import (
	"context"
	"database/sql"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// faces keeps face rows. Reads leave Embedding nil: only the clustering
// job needs embeddings, through queries of its own.
type faces struct{ q querier }

func (r repos) Faces() store.Faces { return faces{r.q} }

var _ store.Faces = faces{}

const (
	faceCols = `f.id, f.asset_id, f.library_id, f.person_id, f.x, f.y, f.width, f.height, f.source,
	f.confidence, f.timestamp_ms, fa.media_type, f.created_at, f.updated_at`
	faceFrom = `faces f JOIN assets fa ON fa.id = f.asset_id`
)

func scanFace(row interface{ Scan(...any) error }) (*catalog.Face, error) {
	var f catalog.Face
	var source, media string
	var created, updated int64
	err := row.Scan(&f.ID, &f.AssetID, &f.LibraryID, &f.PersonID, &f.Box.X, &f.Box.Y, &f.Box.Width,
		&f.Box.Height, &source, &f.Confidence, &f.TimestampMS, &media, &created, &updated)
	if err != nil {
		return nil, err
	}
	f.Source, f.AssetMediaType = catalog.FaceSource(source), catalog.MediaType(media)
	f.CreatedAt, f.UpdatedAt = fromMicros(created), fromMicros(updated)
	return &f, nil
}

func (s faces) Create(ctx context.Context, f *catalog.Face) error {
	_, err := s.q.ExecContext(ctx, `INSERT INTO faces (id, asset_id, library_id, person_id, x, y, width, height,
		source, confidence, timestamp_ms, embedding, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		f.ID, f.AssetID, f.LibraryID, f.PersonID, f.Box.X, f.Box.Y, f.Box.Width, f.Box.Height, string(f.Source),
		f.Confidence, f.TimestampMS, f.Embedding, micros(f.CreatedAt), micros(f.UpdatedAt))
	return one("create face", f.ID, err)
}

func (s faces) Get(ctx context.Context, id string) (*catalog.Face, error) {
	f, err := scanFace(s.q.QueryRowContext(ctx, `SELECT `+faceCols+` FROM `+faceFrom+` WHERE f.id = ?`, id))
	return f, one("face", id, err)
}

func (s faces) GetMany(ctx context.Context, ids []string) ([]catalog.Face, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	return s.collect(ctx, `SELECT `+faceCols+` FROM `+faceFrom+` WHERE f.id IN (`+placeholders(len(ids))+`)`,
		anySlice(ids)...)
}

func (s faces) List(ctx context.Context, f store.FaceFilter, p store.Page) ([]catalog.Face, bool, error) {
	q := listQuery{cols: faceCols, from: faceFrom, idCol: "f.id", desc: true}
	q.where, q.args = faceConditions(f)
	return page(ctx, s.q, q, p, func(rows *sql.Rows) (catalog.Face, error) {
		v, err := scanFace(rows)
		if err != nil {
			return catalog.Face{}, err
		}
		return *v, nil
	})
}

// faceConditions turns a filter into conditions over "faces f". With an
// asset or a person, the library test is written +f.library_id so that the
// planner walks that asset's or person's index (few rows) rather than the
// whole library's.
func faceConditions(f store.FaceFilter) ([]string, []any) {
	lib := "f.library_id = ?"
	if f.AssetID != "" || f.PersonID != "" {
		lib = "+f.library_id = ?"
	}
	where, args := []string{lib}, []any{f.LibraryID}
	switch {
	case f.AssetID != "":
		where, args = append(where, "f.asset_id = ?"), append(args, f.AssetID)
		if f.PersonID != "" {
			where, args = append(where, "+f.person_id = ?"), append(args, f.PersonID)
		}
	case f.PersonID != "":
		where, args = append(where, "f.person_id = ?"), append(args, f.PersonID)
	}
	if len(f.IDs) > 0 {
		where = append(where, "f.id IN ("+placeholders(len(f.IDs))+")")
		args = append(args, anySlice(f.IDs)...)
	}
	return where, args
}

func (s faces) ForAssets(ctx context.Context, assetIDs []string) ([]catalog.Face, error) {
	if len(assetIDs) == 0 {
		return nil, nil
	}
	return s.collect(ctx, `SELECT `+faceCols+` FROM `+faceFrom+` WHERE f.asset_id IN (`+
		placeholders(len(assetIDs))+`) ORDER BY f.asset_id, f.id`, anySlice(assetIDs)...)
}

func (s faces) Assign(ctx context.Context, ids []string, personID *string, now time.Time) error {
	if len(ids) == 0 {
		return nil
	}
	_, err := s.q.ExecContext(ctx, `UPDATE faces SET person_id = ?, assigned_by = 'user', updated_at = ?
		WHERE id IN (`+placeholders(len(ids))+`)`, append([]any{personID, micros(now)}, anySlice(ids)...)...)
	return translate(err)
}

func (s faces) MoveAll(ctx context.Context, from []string, to string, now time.Time) ([]string, error) {
	if len(from) == 0 {
		return nil, nil
	}
	return queryStrings(ctx, s.q, `UPDATE faces SET person_id = ?, assigned_by = 'user', updated_at = ?
		WHERE person_id IN (`+placeholders(len(from))+`) RETURNING id`,
		append([]any{to, micros(now)}, anySlice(from)...)...)
}

func (s faces) Delete(ctx context.Context, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	_, err := s.q.ExecContext(ctx, `DELETE FROM faces WHERE id IN (`+placeholders(len(ids))+`)`, anySlice(ids)...)
	return translate(err)
}

// Replaceable reads the asset's machine faces through faces_asset; the
// user decisions are assigned_by and the person's source (0012).
func (s faces) Replaceable(ctx context.Context, assetID string) ([]catalog.Face, error) {
	return s.collect(ctx, `SELECT `+faceCols+` FROM `+faceFrom+` WHERE f.asset_id = ? AND f.source = 'machine'
		AND f.assigned_by IS NOT 'user' AND (f.person_id IS NULL OR EXISTS (SELECT 1 FROM people p
		WHERE p.id = f.person_id AND p.source = 'machine')) ORDER BY f.id`, assetID)
}

// collect runs a query of faceCols and scans every row.
func (s faces) collect(ctx context.Context, query string, args ...any) ([]catalog.Face, error) {
	rows, err := s.q.QueryContext(ctx, query, args...)
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
