package postgres

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/store/postgres/pgtest"
)

// peopleFixture is a library of many assets, people and faces beside a
// second library with people of its own.
type peopleFixture struct {
	db        *DB
	lib, lib2 string
	assets    []string
	people    []string // lib's people, oldest first
	faces     []string // lib's faces, oldest first
	album     string   // an album of lib's first 100 assets
	star      string   // a person of lib with a face in each of its assets
}

// newPeopleFixture seeds assets, people and faces with SQL (the triggers
// of 0008_people keep counts and links as for the repositories' writes), then
// analyzes the tables.
func newPeopleFixture(t *testing.T) *peopleFixture {
	t.Helper()
	ctx := t.Context()
	db, err := Open(ctx, pgtest.NewURL(t, func(ctx context.Context, url string) error {
		db, err := Open(ctx, url)
		if err != nil {
			return err
		}
		return db.Close()
	}))
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, db.Close()) })
	f := &peopleFixture{db: db}
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	user := catalog.NewID(catalog.PrefixUser, now)
	f.lib, f.lib2 = catalog.NewID(catalog.PrefixLibrary, now), catalog.NewID(catalog.PrefixLibrary, now)
	const assets, people, faces = 3000, 200, 6000
	require.NoError(t, db.InTx(ctx, func(r store.Repos) error {
		if err := r.Users().Create(ctx, &catalog.User{ID: user, Email: "a@example.com", IsActive: true,
			CreatedAt: now, UpdatedAt: now}); err != nil {
			return err
		}
		for i, id := range []string{f.lib, f.lib2} {
			if err := r.Libraries().Create(ctx, &catalog.Library{ID: id, Name: fmt.Sprint("library ", i),
				OwnerID: user, CreatedAt: now, UpdatedAt: now}); err != nil {
				return err
			}
		}
		q := r.(repos).q
		steps := []struct {
			sql  string
			args []any
		}{
			{`INSERT INTO assets (id, library_id, contributor_id, media_type, mime_type, original_file_name,
				file_created_at, file_modified_at, capture_wall, capture_instant, checksum, original_size,
				file_size_bytes, created_at, updated_at)
				SELECT 'asset_' || lpad(i::text, 8, '0'), CASE WHEN i % 2 = 0 THEN ? ELSE ? END, ?, 'image',
					'image/jpeg', 'a.jpg', 0, 0, i * 3600000000, i * 3600000000, sha256(i::text::bytea), 1, 1, 0, 0
				FROM generate_series(1, ?::integer) i`, []any{f.lib2, f.lib, user, assets}},
			// A third of the people are lib2's; every fifth person is an
			// unverified machine cluster; half are named.
			{`INSERT INTO people (id, library_id, name, name_key, verified, source, created_at, updated_at)
				SELECT 'person_' || lpad(i::text, 8, '0'), CASE WHEN i % 3 = 0 THEN ? ELSE ? END,
					CASE WHEN i % 2 = 0 THEN 'Name ' || i ELSE '' END,
					CASE WHEN i % 2 = 0 THEN 'name ' || i END, i % 5 <> 1,
					CASE WHEN i % 5 = 1 THEN 'machine' ELSE 'user' END, 0, 0
				FROM generate_series(1, ?::integer) i`, []any{f.lib2, f.lib, people}},
			// Faces on both libraries' assets: most with a person of the
			// same library, every seventh nobody's.
			{`INSERT INTO faces (id, asset_id, library_id, person_id, x, y, width, height, source, confidence,
				embedding, assigned_by, created_at, updated_at)
				SELECT 'face_' || lpad(i::text, 8, '0'), a.id, a.library_id,
					CASE WHEN i % 7 = 0 THEN NULL ELSE (SELECT p.id FROM people p WHERE p.library_id = a.library_id
						ORDER BY p.id OFFSET (i * 31) % 60 LIMIT 1) END,
					0.1, 0.1, 0.2, 0.2, 'machine', 0.9, '\x01020304', CASE WHEN i % 7 <> 0 THEN 'machine' END, 0, 0
				FROM generate_series(1, ?::integer) i
				JOIN assets a ON a.id = 'asset_' || lpad((1 + (i * 7) % ?::integer)::text, 8, '0')`,
				[]any{faces, assets}},
		}
		for _, s := range steps {
			if _, err := q.exec(ctx, s.sql, s.args...); err != nil {
				return err
			}
		}
		var err error
		if f.assets, err = queryStrings(ctx, q, `SELECT id FROM assets WHERE library_id = ? ORDER BY id`, f.lib); err != nil {
			return err
		}
		if f.people, err = queryStrings(ctx, q, `SELECT id FROM people WHERE library_id = ? ORDER BY id`, f.lib); err != nil {
			return err
		}
		f.star = f.people[1]
		if _, err := q.exec(ctx, `INSERT INTO faces (id, asset_id, library_id, person_id, x, y, width, height,
			source, created_at, updated_at) SELECT 'face_star_' || a.id, a.id, a.library_id, ?, 0.5, 0.5, 0.1, 0.1,
			'manual', 0, 0 FROM assets a WHERE a.library_id = ?`, f.star, f.lib); err != nil {
			return err
		}
		if f.faces, err = queryStrings(ctx, q, `SELECT id FROM faces WHERE library_id = ? ORDER BY id`, f.lib); err != nil {
			return err
		}
		al := &catalog.Album{ID: catalog.NewID(catalog.PrefixAlbum, now), LibraryID: f.lib, Name: "album",
			CreatedAt: now, UpdatedAt: now}
		if err := r.Albums().Create(ctx, al); err != nil {
			return err
		}
		f.album = al.ID
		for _, a := range f.assets[:100] {
			if err := r.Albums().AddLink(ctx, &catalog.AlbumAsset{ID: catalog.NewID(catalog.PrefixAlbumAsset, now),
				AlbumID: al.ID, AssetID: a, LibraryID: f.lib, CreatedAt: now, UpdatedAt: now}); err != nil {
				return err
			}
		}
		return nil
	}))
	_, err = db.pool.Exec(ctx, "ANALYZE")
	require.NoError(t, err)
	return f
}
