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

// sparsePersonAssets is how few faces make a person "sparse" for the
// asset list's person_ids filter: below it, the list starts from the
// rarest person's assets and sorts them; from it on, it walks the timeline
// and probes each asset (personAssetConditions), which finds a page sooner
// when the person is in many of the library's assets. A person's face
// count bounds its asset count (trashed assets included), so a sparse
// person never has more assets than this to sort.
var sparsePersonAssets = 10000

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

// drivePeople makes q start from the assets of the rarest of the people
// when that one is sparse (see sparsePersonAssets); q's conditions, from
// assetConditions, still test every person. An unknown person has no
// assets, so the list starts from (and ends with) nothing.
func drivePeople(ctx context.Context, db querier, q *listQuery, personIDs []string) error {
	rows, err := db.QueryContext(ctx, `SELECT id, face_count FROM people WHERE id IN (`+
		placeholders(len(personIDs))+`)`, anySlice(personIDs)...)
	if err != nil {
		return fmt.Errorf("count the faces of people: %w", translate(err))
	}
	defer rows.Close()
	faces := make(map[string]int, len(personIDs))
	for rows.Next() {
		var id string
		var n int
		if err := rows.Scan(&id, &n); err != nil {
			return err
		}
		faces[id] = n
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("count the faces of people: %w", translate(err))
	}
	rarest, fewest := "", sparsePersonAssets
	for _, id := range personIDs {
		if n := faces[id]; n < fewest { // unknown: 0
			rarest, fewest = id, n
		}
	}
	if rarest == "" {
		return nil
	}
	q.from = "(SELECT asset_id FROM person_assets WHERE person_id = ?) pd CROSS JOIN " + q.from + " ON a.id = pd.asset_id"
	q.args = append([]any{rarest}, q.args...)
	return nil
}
