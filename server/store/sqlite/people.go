package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// people keeps person rows; the triggers of migration 0008 keep their
// counts and featured face.
type people struct{ q querier }

func (r repos) People() store.People { return people{r.q} }

var _ store.People = people{}

// personCols reads a person with its featured face's asset (personFrom).
const (
	personCols = `p.id, p.library_id, p.name, p.birth_date, p.is_hidden, p.is_favorite, p.thumbnail_face_id,
	p.verified, p.face_count, p.asset_count, tf.asset_id, ta.media_type, p.created_at, p.updated_at`
	personJoins = ` LEFT JOIN faces tf ON tf.id = p.thumbnail_face_id LEFT JOIN assets ta ON ta.id = tf.asset_id`
	personFrom  = `people p` + personJoins
)

func scanPerson(row interface{ Scan(...any) error }, extra ...any) (*catalog.Person, error) {
	var p catalog.Person
	var thumbAsset, thumbMedia sql.NullString
	var created, updated int64
	dest := append([]any{&p.ID, &p.LibraryID, &p.Name, &p.BirthDate, &p.IsHidden, &p.IsFavorite,
		&p.ThumbnailFaceID, &p.Verified, &p.FaceCount, &p.AssetCount, &thumbAsset, &thumbMedia,
		&created, &updated}, extra...)
	if err := row.Scan(dest...); err != nil {
		return nil, err
	}
	if thumbAsset.Valid {
		p.ThumbnailAsset = &catalog.AssetRef{ID: thumbAsset.String, MediaType: catalog.MediaType(thumbMedia.String)}
	}
	p.CreatedAt, p.UpdatedAt = fromMicros(created), fromMicros(updated)
	return &p, nil
}

// nameKey is the stored key of a name: NULL for an unnamed person, so
// unnamed people never collide in the unique index.
func nameKey(name string) any {
	if name == "" {
		return nil
	}
	return catalog.NameKey(name)
}

func (s people) Create(ctx context.Context, p *catalog.Person) error {
	_, err := s.q.ExecContext(ctx, `INSERT INTO people (id, library_id, name, name_key, birth_date, is_hidden,
		is_favorite, thumbnail_face_id, verified, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		p.ID, p.LibraryID, p.Name, nameKey(p.Name), p.BirthDate, p.IsHidden, p.IsFavorite, p.ThumbnailFaceID,
		p.Verified, micros(p.CreatedAt), micros(p.UpdatedAt))
	return one("create person", p.ID, err)
}

func (s people) Get(ctx context.Context, id string) (*catalog.Person, error) {
	p, err := scanPerson(s.q.QueryRowContext(ctx, `SELECT `+personCols+` FROM `+personFrom+` WHERE p.id = ?`, id))
	return p, one("person", id, err)
}

func (s people) GetMany(ctx context.Context, ids []string) ([]catalog.Person, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	return s.collect(ctx, `SELECT `+personCols+` FROM `+personFrom+` WHERE p.id IN (`+placeholders(len(ids))+`)`,
		anySlice(ids)...)
}

func (s people) FindByName(ctx context.Context, libraryID, key string) (*catalog.Person, error) {
	p, err := scanPerson(s.q.QueryRowContext(ctx, `SELECT `+personCols+` FROM `+personFrom+`
		WHERE p.library_id = ? AND p.name_key = ?`, libraryID, key))
	return p, one("person named", key, err)
}

func (s people) Update(ctx context.Context, p *catalog.Person) error {
	res, err := s.q.ExecContext(ctx, `UPDATE people SET name = ?, name_key = ?, birth_date = ?, is_hidden = ?,
		is_favorite = ?, thumbnail_face_id = ?, verified = ?, updated_at = ? WHERE id = ?`,
		p.Name, nameKey(p.Name), p.BirthDate, p.IsHidden, p.IsFavorite, p.ThumbnailFaceID, p.Verified,
		micros(p.UpdatedAt), p.ID)
	return affected("person", p.ID, res, err)
}

func (s people) Delete(ctx context.Context, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	_, err := s.q.ExecContext(ctx, `DELETE FROM people WHERE id IN (`+placeholders(len(ids))+`)`, anySlice(ids)...)
	return translate(err)
}

func (s people) List(ctx context.Context, f store.PersonFilter, p store.Page) ([]catalog.Person, bool, error) {
	q := listQuery{cols: personCols, from: personFrom, idCol: "p.id", desc: true}
	q.where, q.args = personConditions(f)
	return page(ctx, s.q, q, p, func(rows *sql.Rows) (catalog.Person, error) {
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
		where = append(where, "p.verified = 1")
	}
	if len(f.IDs) > 0 {
		where = append(where, "p.id IN ("+placeholders(len(f.IDs))+")")
		args = append(args, anySlice(f.IDs)...)
	}
	if f.Name != "" {
		// name_key is the name folded by strings.ToLower (catalog.NameKey).
		where, args = append(where, "instr(p.name_key, ?) > 0"), append(args, strings.ToLower(f.Name))
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
	rows, err := s.q.QueryContext(ctx, `SELECT `+personCols+`, pa.asset_id FROM person_assets pa
		JOIN people p ON p.id = pa.person_id`+personJoins+`
		WHERE pa.asset_id IN (`+placeholders(len(assetIDs))+`) ORDER BY pa.asset_id, p.id`, anySlice(assetIDs)...)
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
	rows, err := s.q.QueryContext(ctx, query, args...)
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

// personAssetConditions keeps the assets of "assets a" holding a face of
// every one of the people (decisions.md: person_ids means all of them).
func personAssetConditions(personIDs []string) ([]string, []any) {
	where := make([]string, len(personIDs))
	args := make([]any, len(personIDs))
	for i, id := range personIDs {
		where[i] = "EXISTS (SELECT 1 FROM person_assets pa WHERE pa.person_id = ? AND pa.asset_id = a.id)"
		args[i] = id
	}
	return where, args
}

// rarestPerson returns the one of the people with the fewest faces (an
// unknown id counts none), whose timeline the asset list walks: a person's
// face count bounds its asset count, so the other people, tested row by
// row, reject the fewest rows.
func rarestPerson(ctx context.Context, db querier, personIDs []string) (string, error) {
	if len(personIDs) == 1 {
		return personIDs[0], nil
	}
	rows, err := db.QueryContext(ctx, `SELECT id, face_count FROM people WHERE id IN (`+
		placeholders(len(personIDs))+`)`, anySlice(personIDs)...)
	if err != nil {
		return "", fmt.Errorf("count the faces of people: %w", translate(err))
	}
	defer rows.Close()
	faces := make(map[string]int, len(personIDs))
	for rows.Next() {
		var id string
		var n int
		if err := rows.Scan(&id, &n); err != nil {
			return "", err
		}
		faces[id] = n
	}
	if err := rows.Err(); err != nil {
		return "", fmt.Errorf("count the faces of people: %w", translate(err))
	}
	rarest := personIDs[0]
	for _, id := range personIDs[1:] {
		if faces[id] < faces[rarest] {
			rarest = id
		}
	}
	return rarest, nil
}

// personTimeline makes an asset list read one person's assets through
// person_assets_timeline (person_id, live, capture_wall, asset_id), as
// albumTimeline does for an album: the links drive, in page order, and
// each asset is found by id; q's conditions test the rest of the filter.
func personTimeline(q *listQuery, personID string, f store.AssetFilter) {
	q.from = "person_assets pt CROSS JOIN assets a ON a.id = pt.asset_id"
	q.sort, q.idCol = "pt.capture_wall", "pt.asset_id"
	q.where = append([]string{"pt.person_id = ?", liveCondition("pt.live", f.State)}, q.where...)
	q.args = append([]any{personID}, q.args...)
	w, a := wallConditions("pt.capture_wall", f.Capture)
	q.where, q.args = append(q.where, w...), append(q.args, a...)
}

// without returns ids less every copy of id.
func without(ids []string, id string) []string {
	out := make([]string, 0, len(ids))
	for _, v := range ids {
		if v != id {
			out = append(out, v)
		}
	}
	return out
}
