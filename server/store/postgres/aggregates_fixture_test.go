package postgres

import (
	"context"
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/store/postgres/pgtest"
)

// aggFixture is a fresh database with one user and two libraries, for the
// tests that compare the maintained aggregates with the asset rows (a port
// of the SQLite store's, so both stores face the same random writes).
type aggFixture struct {
	db        *DB
	userID    string
	lib, lib2 string
	n         int
}

// openMigrated opens a fresh, migrated database dropped when t ends.
func openMigrated(t testing.TB) *DB {
	t.Helper()
	db, err := Open(context.Background(), pgtest.NewURL(t, func(ctx context.Context, url string) error {
		d, err := Open(ctx, url)
		if err != nil {
			return err
		}
		return d.Close()
	}))
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	return db
}

func newAggFixture(t *testing.T) *aggFixture {
	t.Helper()
	ctx := context.Background()
	db := openMigrated(t)
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	f := &aggFixture{db: db}
	require.NoError(t, db.InTx(ctx, func(r store.Repos) error {
		u := &catalog.User{ID: catalog.NewID(catalog.PrefixUser, now), Email: "agg@example.com", IsActive: true,
			CreatedAt: now, UpdatedAt: now}
		if err := r.Users().Create(ctx, u); err != nil {
			return err
		}
		f.userID = u.ID
		for i, dst := range []*string{&f.lib, &f.lib2} {
			l := &catalog.Library{ID: catalog.NewID(catalog.PrefixLibrary, now), Name: fmt.Sprintf("library %d", i),
				OwnerID: u.ID, CreatedAt: now, UpdatedAt: now}
			if err := r.Libraries().Create(ctx, l); err != nil {
				return err
			}
			*dst = l.ID
		}
		return nil
	}))
	return f
}

// newAsset is an asset of library lib taken at wall (offset in seconds or
// nil) at lon, lat (nil: no coordinates).
func (f *aggFixture) newAsset(lib string, wall time.Time, offset *int, media catalog.MediaType, rating *float64,
	lonlat []float64) *catalog.Asset {
	f.n++
	created := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(f.n) * time.Millisecond)
	sum := sha256.Sum256([]byte(fmt.Sprint(f.n)))
	a := &catalog.Asset{ID: catalog.NewID(catalog.PrefixAsset, created), LibraryID: lib, ContributorID: f.userID,
		MediaType: media, MIMEType: "image/jpeg", OriginalFileName: "a.jpg", FileCreatedAt: created,
		FileModifiedAt: created, Capture: catalog.CaptureTime{Wall: wall, Offset: offset}, Checksum: sum[:],
		OriginalSize: 1, FileSizeBytes: 1, CreatedAt: created, UpdatedAt: created}
	a.FileMeta.Rating = rating
	if lonlat != nil {
		a.FileMeta.Longitude, a.FileMeta.Latitude = &lonlat[0], &lonlat[1]
	}
	return a
}

// aggPlaces are centres of clusters: cities, both sides of the antimeridian,
// the poles and the edges of the coordinate space.
var aggPlaces = [][2]float64{{2.35, 48.85}, {-0.12, 51.5}, {139.7, 35.7}, {-74, 40.7}, {151.2, -33.9},
	{178.4, -18.1}, {-171.8, -13.8}, {179.99, 0}, {-179.99, 0}, {0, 89.99}, {0, -89.99}, {10, 10}}

func randomLonLat(rng *rand.Rand) []float64 {
	switch rng.IntN(20) {
	case 0:
		return nil
	case 1: // exactly on grid lines and edges
		return []float64{float64(rng.IntN(37)*10 - 180), float64(rng.IntN(19)*10 - 90)}
	case 2, 3, 4, 5:
		return nil
	}
	p := aggPlaces[rng.IntN(len(aggPlaces))]
	spread := []float64{0.001, 0.05, 0.5, 3}[rng.IntN(4)]
	lon := p[0] + rng.NormFloat64()*spread
	lat := max(-90, min(90, p[1]+rng.NormFloat64()*spread))
	for lon > 180 {
		lon -= 360
	}
	for lon < -180 {
		lon += 360
	}
	return []float64{lon, lat}
}

func randomAsset(f *aggFixture, rng *rand.Rand) *catalog.Asset {
	lib := f.lib
	if rng.IntN(10) == 0 {
		lib = f.lib2
	}
	base := time.Date(2018, 1, 1, 0, 0, 0, 0, time.UTC)
	wall := base.Add(time.Duration(rng.Int64N(int64(7 * 365 * 24 * time.Hour))))
	if rng.IntN(50) == 0 { // before 1970: floor division of negative times
		wall = time.Date(1969, 12, 31, 23, 59, 59, 999999000, time.UTC).Add(-time.Duration(rng.IntN(3)) * 24 * time.Hour)
	}
	var offset *int
	if rng.IntN(2) == 0 {
		o := (rng.IntN(27) - 12) * 3600
		offset = &o
	}
	media := catalog.MediaImage
	if rng.IntN(4) == 0 {
		media = catalog.MediaVideo
	}
	var rating *float64
	if rng.IntN(3) == 0 {
		v := float64(rng.IntN(6))
		rating = &v
	}
	return f.newAsset(lib, wall, offset, media, rating, randomLonLat(rng))
}

// seedRandom writes n random assets, then edits, moves, stacks, trashes,
// restores and deletes some of them, several rows to a statement where the
// store does so (trash, restore, delete, stack covers).
func seedRandom(t *testing.T, f *aggFixture, rng *rand.Rand, n int) []*catalog.Asset {
	t.Helper()
	ctx := context.Background()
	var all []*catalog.Asset
	require.NoError(t, f.db.InTx(ctx, func(r store.Repos) error {
		for range n {
			a := randomAsset(f, rng)
			if err := r.Assets().Create(ctx, a); err != nil {
				return err
			}
			all = append(all, a)
		}
		return nil
	}))
	now := time.Date(2025, 2, 1, 0, 0, 0, 0, time.UTC)
	for round := range 4 {
		require.NoError(t, f.db.InTx(ctx, func(r store.Repos) error {
			for _, a := range all {
				if rng.IntN(8) != 0 {
					continue
				}
				switch rng.IntN(4) {
				case 0:
					a.UserMeta.Latitude, a.UserMeta.Longitude = nil, nil
					if ll := randomLonLat(rng); ll != nil {
						a.UserMeta.Longitude, a.UserMeta.Latitude = &ll[0], &ll[1]
					}
				case 1:
					a.Capture.Wall = a.Capture.Wall.Add(time.Duration(rng.IntN(96)-48) * time.Hour)
				case 2:
					v := float64(rng.IntN(6))
					a.UserMeta.Rating = &v
				case 3:
					a.MediaType = catalog.MediaVideo
				}
				if err := r.Assets().Update(ctx, a); err != nil {
					return err
				}
			}
			var trash, restore, del []string
			for _, a := range all {
				switch rng.IntN(30) {
				case 0:
					trash = append(trash, a.ID)
				case 1:
					restore = append(restore, a.ID)
				case 2:
					if round == 3 {
						del = append(del, a.ID)
					}
				}
			}
			if err := r.Assets().SetTrashed(ctx, trash, &now, now); err != nil {
				return err
			}
			if err := r.Assets().SetTrashed(ctx, restore, nil, now); err != nil {
				return err
			}
			// Stack membership: hide some assets from collapsed lists, show
			// others again, many rows in one statement.
			q := r.(repos).q
			if _, err := q.exec(ctx, `UPDATE assets SET stack_cover = 1 - stack_cover WHERE seq % 37 = ?`, round); err != nil {
				return err
			}
			return r.Assets().Delete(ctx, del)
		}))
	}
	return all
}
