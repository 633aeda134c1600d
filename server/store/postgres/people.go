package postgres

import (
	"context"
	"strings"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// people keeps person rows; the triggers of migration 0009 keep their
// counts and featured face.
type people struct{ q conn }

var _ store.People = people{}

// People returns the person repository.
func (r repos) People() store.People { return people{r.q} }

// personCols reads a person of "people p" with its featured face's asset.
// The asset comes from scalar subqueries, not joins: the planner never
// flattens those, so each row costs two primary-key lookups however the
// people were found (a join may become a merge join walking every face).
const personCols = `p.id, p.library_id, p.name, p.birth_date, p.is_hidden, p.is_favorite, p.thumbnail_face_id,
	p.verified, p.face_count, p.asset_count,
	(SELECT tf.asset_id FROM faces tf WHERE tf.id = p.thumbnail_face_id),
	(SELECT ta.media_type FROM faces tf JOIN assets ta ON ta.id = tf.asset_id WHERE tf.id = p.thumbnail_face_id),
	p.created_at, p.updated_at`

func scanPerson(row scanner, extra ...any) (*catalog.Person, error) {
	var p catalog.Person
	var thumbAsset, thumbMedia *string
	var created, updated int64
	dest := append([]any{&p.ID, &p.LibraryID, &p.Name, &p.BirthDate, &p.IsHidden, &p.IsFavorite,
		&p.ThumbnailFaceID, &p.Verified, &p.FaceCount, &p.AssetCount, &thumbAsset, &thumbMedia,
		&created, &updated}, extra...)
	if err := row.Scan(dest...); err != nil {
		return nil, err
	}
	if thumbAsset != nil {
		media := ""
		if thumbMedia != nil {
			media = *thumbMedia
		}
		p.ThumbnailAsset = &catalog.AssetRef{ID: *thumbAsset, MediaType: catalog.MediaType(media)}
	}
	p.CreatedAt, p.UpdatedAt = fromMicros(created), fromMicros(updated)
	return &p, nil
}

// nameKey is the stored key of a name: NULL for an unnamed person, so
// unnamed people never collide in the unique index.
func nameKey(name string) *string {
	if name == "" {
		return nil
	}
	k := catalog.NameKey(name)
	return &k
}

func (s people) Create(ctx context.Context, p *catalog.Person) error {
	// ON CONFLICT DO NOTHING: a taken name is ErrConflict without aborting
	// the transaction (callers reuse the named person then).
	tag, err := s.q.exec(ctx, `INSERT INTO people (id, library_id, name, name_key, birth_date, is_hidden,
		is_favorite, thumbnail_face_id, verified, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT DO NOTHING`,
		p.ID, p.LibraryID, p.Name, nameKey(p.Name), p.BirthDate, p.IsHidden, p.IsFavorite, p.ThumbnailFaceID,
		p.Verified, micros(p.CreatedAt), micros(p.UpdatedAt))
	return inserted("create person", p.ID, tag, err)
}

func (s people) Get(ctx context.Context, id string) (*catalog.Person, error) {
	p, err := scanPerson(s.q.queryRow(ctx, `SELECT `+personCols+` FROM people p WHERE p.id = ?`, id))
	return p, one("person", id, err)
}

func (s people) GetMany(ctx context.Context, ids []string) ([]catalog.Person, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	return s.collect(ctx, `SELECT `+personCols+` FROM people p WHERE p.id = ANY(?::text[])`, ids)
}

func (s people) FindByName(ctx context.Context, libraryID, key string) (*catalog.Person, error) {
	p, err := scanPerson(s.q.queryRow(ctx, `SELECT `+personCols+` FROM people p
		WHERE p.library_id = ? AND p.name_key = ?`, libraryID, key))
	return p, one("person named", key, err)
}

func (s people) Update(ctx context.Context, p *catalog.Person) error {
	// A rename onto another person's name is a conflict; checked first so
	// that the unique index does not abort the transaction.
	if key := nameKey(p.Name); key != nil {
		var taken bool
		err := s.q.queryRow(ctx, `SELECT EXISTS (SELECT 1 FROM people WHERE library_id =
			(SELECT library_id FROM people WHERE id = ?) AND name_key = ? AND id <> ?)`, p.ID, *key, p.ID).Scan(&taken)
		if err != nil {
			return one("person", p.ID, err)
		}
		if taken {
			return one("rename person", p.Name, catalog.ErrConflict)
		}
	}
	tag, err := s.q.exec(ctx, `UPDATE people SET name = ?, name_key = ?, birth_date = ?, is_hidden = ?,
		is_favorite = ?, thumbnail_face_id = ?, verified = ?, updated_at = ? WHERE id = ?`,
		p.Name, nameKey(p.Name), p.BirthDate, p.IsHidden, p.IsFavorite, p.ThumbnailFaceID, p.Verified,
		micros(p.UpdatedAt), p.ID)
	return affected("person", p.ID, tag, err)
}

func (s people) Delete(ctx context.Context, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	_, err := s.q.exec(ctx, `DELETE FROM people WHERE id = ANY(?::text[])`, ids)
	return translate(err)
}

func (s people) List(ctx context.Context, f store.PersonFilter, p store.Page) ([]catalog.Person, bool, error) {
	q := listQuery{cols: personCols, from: "people p", idCol: "p.id", desc: true}
	q.where, q.args = personConditions(f)
	return page(ctx, s.q, q, p, func(rows scanner) (catalog.Person, error) {
		v, err := scanPerson(rows)
		if err != nil {
			return catalog.Person{}, err
		}
		return *v, nil
	})
}

// personConditions turns a filter into conditions over "people p". The
// verified ones match the partial index people_library_verified.
func personConditions(f store.PersonFilter) ([]string, []any) {
	where := []string{"p.library_id = ?"}
	args := []any{f.LibraryID}
	if !f.IncludeUnverified {
		where = append(where, "p.verified")
	}
	if len(f.IDs) > 0 {
		where, args = append(where, "p.id = ANY(?::text[])"), append(args, f.IDs)
	}
	if f.Name != "" {
		// name_key is the name folded by strings.ToLower (catalog.NameKey).
		where, args = append(where, "strpos(p.name_key, ?) > 0"), append(args, strings.ToLower(f.Name))
	}
	if f.Named != nil {
		if *f.Named {
			where = append(where, "p.name_key IS NOT NULL")
		} else {
			where = append(where, "p.name_key IS NULL")
		}
	}
	if f.AssetID != "" {
		where = append(where, "p.id IN (SELECT person_id FROM person_assets WHERE asset_id = ?)")
		args = append(args, f.AssetID)
	}
	if f.AlbumID != "" {
		where = append(where, `p.id IN (SELECT pa.person_id FROM album_assets aa
			JOIN person_assets pa ON pa.asset_id = aa.asset_id WHERE aa.album_id = ? AND aa.live = 1)`)
		args = append(args, f.AlbumID)
	}
	return where, args
}

func (s people) ForAssets(ctx context.Context, assetIDs []string) (map[string][]catalog.Person, error) {
	out := make(map[string][]catalog.Person, len(assetIDs))
	if len(assetIDs) == 0 {
		return out, nil
	}
	rows, err := s.q.query(ctx, `SELECT `+personCols+`, pa.asset_id FROM person_assets pa
		JOIN people p ON p.id = pa.person_id
		WHERE pa.asset_id = ANY(?::text[]) ORDER BY pa.asset_id, p.id`, assetIDs)
	if err != nil {
		return nil, translate(err)
	}
	defer rows.Close()
	for rows.Next() {
		var assetID string
		p, err := scanPerson(rows, &assetID)
		if err != nil {
			return nil, err
		}
		out[assetID] = append(out[assetID], *p)
	}
	return out, translate(rows.Err())
}

// collect runs a query of personCols and scans every row.
func (s people) collect(ctx context.Context, query string, args ...any) ([]catalog.Person, error) {
	rows, err := s.q.query(ctx, query, args...)
	if err != nil {
		return nil, translate(err)
	}
	defer rows.Close()
	var out []catalog.Person
	for rows.Next() {
		p, err := scanPerson(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, *p)
	}
	return out, translate(rows.Err())
}
