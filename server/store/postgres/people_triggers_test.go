package postgres_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/store/postgres"
)

// TestPeopleCountsHoldUnderConcurrentChanges runs random face, person and
// asset changes from several goroutines at once, each in its own
// transaction, and then requires what the triggers of 0008_people maintain to
// equal what the rows say: face and asset counts, person-asset links with
// their copies of live and capture_wall, featured faces, centroid rows. A
// transaction PostgreSQL gives up on as too contended (ErrUnavailable after
// InTx's retries) left nothing behind and is only counted.
func TestPeopleCountsHoldUnderConcurrentChanges(t *testing.T) {
	s := openStore(t)
	db := s.(*postgres.DB)
	ctx := t.Context()
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	user := catalog.NewID(catalog.PrefixUser, now)
	lib := catalog.NewID(catalog.PrefixLibrary, now)
	var people []string
	require.NoError(t, s.InTx(ctx, func(r store.Repos) error {
		if err := r.Users().Create(ctx, &catalog.User{ID: user, Email: "a@example.com", IsActive: true,
			CreatedAt: now, UpdatedAt: now}); err != nil {
			return err
		}
		if err := r.Libraries().Create(ctx, &catalog.Library{ID: lib, Name: "Family", OwnerID: user,
			CreatedAt: now, UpdatedAt: now}); err != nil {
			return err
		}
		for i := range 5 {
			p := &catalog.Person{ID: catalog.NewID(catalog.PrefixPerson, now), LibraryID: lib,
				Name: fmt.Sprint("P", i), Verified: true, CreatedAt: now, UpdatedAt: now}
			if err := r.People().Create(ctx, p); err != nil {
				return err
			}
			people = append(people, p.ID)
		}
		return nil
	}))
	_, err := db.Pool().Exec(ctx, `INSERT INTO assets (id, library_id, contributor_id, media_type, mime_type,
		original_file_name, file_created_at, file_modified_at, capture_wall, capture_instant, checksum,
		original_size, file_size_bytes, created_at, updated_at)
		SELECT 'asset_' || lpad(i::text, 4, '0'), $1, $2, 'image', 'image/jpeg', 'a.jpg', 0, 0,
			i * 1000000, i * 1000000, sha256(i::text::bytea), 1, 1, 0, 0 FROM generate_series(1, 30) i`, lib, user)
	require.NoError(t, err)
	assets := make([]string, 30)
	for i := range assets {
		assets[i] = fmt.Sprintf("asset_%04d", i+1)
	}

	var mu sync.Mutex
	var faces []string
	var busy int
	pick := func(rng *rand.Rand, ids []string) string { return ids[rng.IntN(len(ids))] }
	somePerson := func(rng *rand.Rand) *string {
		if rng.IntN(4) == 0 {
			return nil
		}
		p := pick(rng, people)
		return &p
	}
	confidence := 0.5
	var wg sync.WaitGroup
	for g := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(g), 7))
			for op := range 60 {
				at := now.Add(time.Duration(g*1000+op) * time.Second)
				mu.Lock()
				known := append([]string(nil), faces...)
				mu.Unlock()
				var created string
				err := s.InTx(ctx, func(r store.Repos) error {
					created = ""
					switch n := rng.IntN(10); {
					case n < 4 || len(known) == 0: // a new face, with an embedding or without
						f := &catalog.Face{ID: catalog.NewID(catalog.PrefixFace, at), AssetID: pick(rng, assets),
							LibraryID: lib, PersonID: somePerson(rng), Box: catalog.BoundingBox{Width: 0.1, Height: 0.1},
							Source: catalog.FaceMachine, Confidence: &confidence, CreatedAt: at, UpdatedAt: at}
						if rng.IntN(2) == 0 {
							f.Embedding = []byte{1, 0, 0, 0}
						}
						created = f.ID
						return r.Faces().Create(ctx, f)
					case n < 6:
						return r.Faces().Assign(ctx, []string{pick(rng, known), pick(rng, known)}, somePerson(rng), at)
					case n < 7:
						return r.Faces().Delete(ctx, []string{pick(rng, known)})
					case n < 8:
						_, err := r.Faces().MoveAll(ctx, []string{pick(rng, people)}, pick(rng, people), at)
						return err
					case n < 9:
						var trashed *time.Time
						if rng.IntN(2) == 0 {
							trashed = &at
						}
						return r.Assets().SetTrashed(ctx, []string{pick(rng, assets), pick(rng, assets)}, trashed, at)
					default: // a capture edit
						a, err := r.Assets().Get(ctx, pick(rng, assets))
						if err != nil {
							return err
						}
						a.Capture.Wall, a.UpdatedAt = a.Capture.Wall.Add(time.Duration(rng.IntN(100))*time.Hour), at
						return r.Assets().Update(ctx, a)
					}
				})
				if errors.Is(err, catalog.ErrUnavailable) {
					mu.Lock()
					busy++
					mu.Unlock()
					continue
				}
				if err != nil {
					t.Errorf("unexpected error: %v", err)
					return
				}
				if created != "" {
					mu.Lock()
					faces = append(faces, created)
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	// Capture edits and an asset's deletion, then the invariants.
	_, err = db.Pool().Exec(ctx, `UPDATE assets SET capture_wall = capture_wall + 7 WHERE id = ANY($1)`, assets[:10])
	require.NoError(t, err)
	require.NoError(t, s.InTx(ctx, func(r store.Repos) error { return r.Assets().Delete(ctx, assets[10:12]) }))
	t.Logf("%d faces made, %d transactions too contended", len(faces), busy)
	requirePeopleInvariants(t, db)
}

// requirePeopleInvariants requires every maintained column and link to
// equal what the faces and assets say.
func requirePeopleInvariants(t *testing.T, db *postgres.DB) {
	t.Helper()
	checks := map[string]string{
		"face counts": `SELECT p.id FROM people p WHERE p.face_count <>
			(SELECT count(*) FROM faces f WHERE f.person_id = p.id)`,
		"asset counts": `SELECT p.id FROM people p WHERE p.asset_count <>
			(SELECT count(DISTINCT f.asset_id) FROM faces f JOIN assets a ON a.id = f.asset_id
			WHERE f.person_id = p.id AND a.live = 1)`,
		"links missing or wrong": `WITH want AS (SELECT f.person_id, f.asset_id, count(*) AS faces, a.live,
				a.capture_wall FROM faces f JOIN assets a ON a.id = f.asset_id WHERE f.person_id IS NOT NULL
				GROUP BY f.person_id, f.asset_id, a.live, a.capture_wall)
			SELECT w.person_id || ' ' || w.asset_id FROM want w WHERE NOT EXISTS (SELECT 1 FROM person_assets pa
				WHERE pa.person_id = w.person_id AND pa.asset_id = w.asset_id AND pa.faces = w.faces
				AND pa.live = w.live AND pa.capture_wall = w.capture_wall)`,
		"links without faces": `SELECT pa.person_id || ' ' || pa.asset_id FROM person_assets pa WHERE NOT EXISTS
			(SELECT 1 FROM faces f WHERE f.person_id = pa.person_id AND f.asset_id = pa.asset_id)`,
		"featured faces": `SELECT p.id FROM people p WHERE (p.thumbnail_face_id IS NULL) <> (p.face_count = 0)
			OR (p.thumbnail_face_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM faces f
				WHERE f.id = p.thumbnail_face_id AND f.person_id = p.id))`,
		"centroid rows": `SELECT DISTINCT f.person_id FROM faces f WHERE f.person_id IS NOT NULL
			AND f.embedding IS NOT NULL AND NOT EXISTS (SELECT 1 FROM person_centroids c
				WHERE c.person_id = f.person_id)`,
	}
	for name, sql := range checks {
		rows, err := db.Pool().Query(t.Context(), sql)
		require.NoError(t, err, name)
		var bad []string
		for rows.Next() {
			var v string
			require.NoError(t, rows.Scan(&v))
			bad = append(bad, v)
		}
		require.NoError(t, rows.Err())
		require.Empty(t, bad, "%s: %s", name, strings.Join(bad, ", "))
	}
}
