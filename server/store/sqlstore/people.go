package sqlstore

import (
	"context"
	"strings"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// people keeps person rows; each dialect's triggers (SQLite's migration
// 0008, PostgreSQL's 0009) keep their counts and featured face.
type people struct{ q Q }

var _ store.People = people{}

// People returns the person repository.
func (r Repos) People() store.People { return people{r.Q} }

// personRead is how a person of "people p" is read with its featured
// face's asset: the select list, and the joins that follow "people p"
// (none where the dialect reads the asset through scalar subqueries).
func personRead(d *Dialect) (cols, joins string) {
	thumb := `tf.asset_id, ta.media_type`
	joins = ` LEFT JOIN faces tf ON tf.id = p.thumbnail_face_id LEFT JOIN assets ta ON ta.id = tf.asset_id`
	if d.ScalarLookups {
		thumb = `(SELECT tf.asset_id FROM faces tf WHERE tf.id = p.thumbnail_face_id),
	(SELECT ta.media_type FROM faces tf JOIN assets ta ON ta.id = tf.asset_id WHERE tf.id = p.thumbnail_face_id)`
		joins = ""
	}
	return `p.id, p.library_id, p.name, p.birth_date, p.is_hidden, p.is_favorite, p.thumbnail_face_id,
	p.verified, p.face_count, p.asset_count, ` + thumb + `, p.created_at, p.updated_at`, joins
}

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

// selectPeople is the start of a query of people: SELECT the person's
// columns FROM "people p" and its joins.
func (s people) selectPeople() string {
	cols, joins := personRead(s.q.d)
	return `SELECT ` + cols + ` FROM people p` + joins
}

func (s people) Create(ctx context.Context, p *catalog.Person) error {
	// ON CONFLICT DO NOTHING: a taken name is ErrConflict without aborting
	// a PostgreSQL transaction (callers reuse the named person then).
	res, err := s.q.exec(ctx, `INSERT INTO people (id, library_id, name, name_key, birth_date, is_hidden,
		is_favorite, thumbnail_face_id, verified, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT DO NOTHING`,
		p.ID, p.LibraryID, p.Name, nameKey(p.Name), p.BirthDate, p.IsHidden, p.IsFavorite, p.ThumbnailFaceID,
		p.Verified, micros(p.CreatedAt), micros(p.UpdatedAt))
	return s.q.inserted("create person", p.ID, res, err)
}

func (s people) Get(ctx context.Context, id string) (*catalog.Person, error) {
	p, err := scanPerson(s.q.queryRow(ctx, s.selectPeople()+` WHERE p.id = ?`, id))
	return p, s.q.one("person", id, err)
}

func (s people) GetMany(ctx context.Context, ids []string) ([]catalog.Person, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	in, args := s.q.d.In("p.id", ids)
	return queryAll(ctx, s.q, scanPersonValue, s.selectPeople()+` WHERE `+in, args...)
}

func (s people) FindByName(ctx context.Context, libraryID, key string) (*catalog.Person, error) {
	p, err := scanPerson(s.q.queryRow(ctx, s.selectPeople()+` WHERE p.library_id = ? AND p.name_key = ?`,
		libraryID, key))
	return p, s.q.one("person named", key, err)
}

func (s people) Update(ctx context.Context, p *catalog.Person) error {
	// A rename onto another person's name is a conflict; checked first so
	// that the unique index does not abort a PostgreSQL transaction.
	if key := nameKey(p.Name); key != nil {
		var taken bool
		err := s.q.queryRow(ctx, `SELECT EXISTS (SELECT 1 FROM people WHERE library_id =
			(SELECT library_id FROM people WHERE id = ?) AND name_key = ? AND id <> ?)`, p.ID, *key, p.ID).Scan(&taken)
		if err != nil {
			return s.q.one("person", p.ID, err)
		}
		if taken {
			return s.q.one("rename person", p.Name, catalog.ErrConflict)
		}
	}
	res, err := s.q.exec(ctx, `UPDATE people SET name = ?, name_key = ?, birth_date = ?, is_hidden = ?,
		is_favorite = ?, thumbnail_face_id = ?, verified = ?, updated_at = ? WHERE id = ?`,
		p.Name, nameKey(p.Name), p.BirthDate, p.IsHidden, p.IsFavorite, p.ThumbnailFaceID, p.Verified,
		micros(p.UpdatedAt), p.ID)
	return s.q.affected("person", p.ID, res, err)
}

func (s people) Delete(ctx context.Context, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	in, args := s.q.d.In("id", ids)
	_, err := s.q.exec(ctx, `DELETE FROM people WHERE `+in, args...)
	return s.q.translate(err)
}

func (s people) List(ctx context.Context, f query.PersonFilter, p query.Page) ([]catalog.Person, bool, error) {
	cols, joins := personRead(s.q.d)
	q := listQuery{cols: cols, from: "people p" + joins, idCol: "p.id", desc: true}
	q.where, q.args = personConditions(s.q.d, f)
	return page(ctx, s.q, q, p, scanPersonValue)
}

func scanPersonValue(row scanner) (catalog.Person, error) {
	p, err := scanPerson(row)
	if err != nil {
		return catalog.Person{}, err
	}
	return *p, nil
}

// personConditions turns a filter into conditions over "people p". The
// verified ones match the partial index people_library_verified.
func personConditions(d *Dialect, f query.PersonFilter) ([]string, []any) {
	where := []string{"p.library_id = ?"}
	args := []any{f.LibraryID}
	if !f.IncludeUnverified {
		where = append(where, "p.verified = "+d.True)
	}
	if len(f.IDs) > 0 {
		in, a := d.In("p.id", f.IDs)
		where, args = append(where, in), append(args, a...)
	}
	if f.Name != "" {
		// name_key is the name folded by strings.ToLower (catalog.NameKey).
		where, args = append(where, d.Instr+"(p.name_key, ?) > 0"), append(args, strings.ToLower(f.Name))
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
	cols, joins := personRead(s.q.d)
	in, args := s.q.d.In("pa.asset_id", assetIDs)
	rows, err := s.q.query(ctx, `SELECT `+cols+`, pa.asset_id FROM person_assets pa
		JOIN people p ON p.id = pa.person_id`+joins+`
		WHERE `+in+` ORDER BY pa.asset_id, p.id`, args...)
	if err != nil {
		return nil, s.q.translate(err)
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
	return out, s.q.translate(rows.Err())
}
