package storetest

// The white-box tests of the SQL stores' maintained aggregates
// (sqlstore/aggregates.go): both stores face the same random writes, and
// the tests read the tables the triggers keep and force either path of the
// repository, which the interfaces alone cannot.

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
	"github.com/photoctl/photoctl/server/store/sqlstore"
)

// SQLStore is what the aggregate tests need of a SQL store beyond
// store.Store.
type SQLStore struct {
	// Open returns a fresh, empty, migrated store released when t ends.
	Open func(t testing.TB) store.Store
	// Q is the store's connection for reads, with its dialect.
	Q func(s store.Store) sqlstore.Q
	// Exec runs a statement in r's transaction.
	Exec func(ctx context.Context, r store.Repos, query string, args ...any) error
	// Rows runs a query outside any transaction and returns each row as
	// fmt.Sprint of its values.
	Rows func(t testing.TB, s store.Store, query string) []string
	// ClusterRounds is how many random viewports ClusterPathsAgree asks,
	// of which more than ClusterNonEmpty must find assets.
	ClusterRounds, ClusterNonEmpty int
}

// via is s's aggregates repository forced to one path.
func (h SQLStore) via(s store.Store, p sqlstore.AggregatePath) sqlstore.Aggregates {
	return sqlstore.Aggregates{Q: h.Q(s), Path: p}
}

// AggFixture is a database with one user and two libraries.
type AggFixture struct {
	S         store.Store
	UserID    string
	Lib, Lib2 string
	N         int
	h         SQLStore
}

// NewAggFixture opens a store of h and adds the user and libraries.
func NewAggFixture(t testing.TB, h SQLStore) *AggFixture {
	t.Helper()
	ctx := context.Background()
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	f := &AggFixture{S: h.Open(t), h: h}
	require.NoError(t, f.S.InTx(ctx, func(r store.Repos) error {
		u := &catalog.User{ID: catalog.NewID(catalog.PrefixUser, now), Email: "agg@example.com", IsActive: true,
			CreatedAt: now, UpdatedAt: now}
		if err := r.Users().Create(ctx, u); err != nil {
			return err
		}
		f.UserID = u.ID
		for i, dst := range []*string{&f.Lib, &f.Lib2} {
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

// NewAsset is an asset of library lib taken at wall (offset in seconds or
// nil) at lon, lat (nil: no coordinates).
func (f *AggFixture) NewAsset(lib string, wall time.Time, offset *int, media catalog.MediaType, rating *float64,
	lonlat []float64) *catalog.Asset {
	f.N++
	created := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(f.N) * time.Millisecond)
	sum := sha256.Sum256([]byte(fmt.Sprint(f.N)))
	a := &catalog.Asset{ID: catalog.NewID(catalog.PrefixAsset, created), LibraryID: lib, ContributorID: f.UserID,
		MediaType: media, MIMEType: "image/jpeg", OriginalFileName: "a.jpg", FileCreatedAt: created,
		FileModifiedAt: created, Capture: catalog.CaptureTime{Wall: wall, Offset: offset}, Checksum: sum[:],
		OriginalSize: 1, FileSizeBytes: 1, CreatedAt: created, UpdatedAt: created}
	a.FileMeta.Rating = rating
	if lonlat != nil {
		a.FileMeta.Longitude, a.FileMeta.Latitude = &lonlat[0], &lonlat[1]
	}
	return a
}

// AggPlaces are centres of clusters: cities, both sides of the antimeridian,
// the poles and the edges of the coordinate space.
var AggPlaces = [][2]float64{{2.35, 48.85}, {-0.12, 51.5}, {139.7, 35.7}, {-74, 40.7}, {151.2, -33.9},
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
	p := AggPlaces[rng.IntN(len(AggPlaces))]
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

func randomAsset(f *AggFixture, rng *rand.Rand) *catalog.Asset {
	lib := f.Lib
	if rng.IntN(10) == 0 {
		lib = f.Lib2
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
	return f.NewAsset(lib, wall, offset, media, rating, randomLonLat(rng))
}

// SeedRandom writes n random assets, then edits, moves, stacks, trashes,
// restores and deletes some of them, several rows to a statement where the
// store does so (trash, restore, delete, stack covers).
func SeedRandom(t *testing.T, f *AggFixture, rng *rand.Rand, n int) []*catalog.Asset {
	t.Helper()
	ctx := context.Background()
	var all []*catalog.Asset
	require.NoError(t, f.S.InTx(ctx, func(r store.Repos) error {
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
		require.NoError(t, f.S.InTx(ctx, func(r store.Repos) error {
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
			if err := f.h.Exec(ctx, r, `UPDATE assets SET stack_cover = 1 - stack_cover WHERE seq % 37 = ?`, round); err != nil {
				return err
			}
			return r.Assets().Delete(ctx, del)
		}))
	}
	return all
}
