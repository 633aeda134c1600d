package sqlite

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// TestSearchPrefilterAgrees pages through random text searches with
// capture windows, people and albums, with and without the prefilter, and
// requires the same hits in the same order with the same scores.
func TestSearchPrefilterAgrees(t *testing.T) {
	f := newAggFixture(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(3, 4))
	words := []string{"beach", "temple", "sunset", "dog", "market", "bridge", "snow"}
	start := time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)
	var ids []string
	require.NoError(t, f.db.InTx(ctx, func(r store.Repos) error {
		for range 400 {
			wall := start.Add(time.Duration(rng.IntN(2*365*24)) * time.Hour)
			var offset *int
			if rng.IntN(2) == 0 {
				o := 3600 * (rng.IntN(20) - 8)
				offset = &o
			}
			a := f.newAsset(f.lib, wall, offset, catalog.MediaImage, nil, nil)
			desc := words[rng.IntN(len(words))] + " " + words[rng.IntN(len(words))]
			a.Description = &desc
			if rng.IntN(10) == 0 {
				now := start
				a.TrashedAt = &now
			}
			if err := r.Assets().Create(ctx, a); err != nil {
				return err
			}
			ids = append(ids, a.ID)
		}
		return nil
	}))
	people := []*catalog.Person{}
	album := &catalog.Album{ID: catalog.NewID(catalog.PrefixAlbum, start), LibraryID: f.lib, Name: "Trip",
		CreatedAt: start, UpdatedAt: start}
	require.NoError(t, f.db.InTx(ctx, func(r store.Repos) error {
		for i, name := range []string{"Ann", "Bob", "Cid"} {
			p := &catalog.Person{ID: catalog.NewID(catalog.PrefixPerson, start.Add(time.Duration(i))), LibraryID: f.lib,
				Name: name, Verified: true, CreatedAt: start, UpdatedAt: start}
			if err := r.People().Create(ctx, p); err != nil {
				return err
			}
			people = append(people, p)
		}
		if err := r.Albums().Create(ctx, album); err != nil {
			return err
		}
		for i, id := range ids {
			if i%3 == 0 {
				p := people[i%len(people)]
				if err := r.Faces().Create(ctx, &catalog.Face{ID: catalog.NewID(catalog.PrefixFace, start.Add(time.Duration(i))),
					AssetID: id, LibraryID: f.lib, PersonID: &p.ID, Source: catalog.FaceMachine,
					Box: catalog.BoundingBox{X: 0.1, Y: 0.1, Width: 0.2, Height: 0.2}, CreatedAt: start, UpdatedAt: start}); err != nil {
					return err
				}
			}
			if i%5 == 0 {
				if err := r.Albums().AddLink(ctx, &catalog.AlbumAsset{ID: catalog.NewID(catalog.PrefixAlbumAsset, start.Add(time.Duration(i))),
					AlbumID: album.ID, AssetID: id, LibraryID: f.lib, CreatedAt: start, UpdatedAt: start}); err != nil {
					return err
				}
			}
		}
		return nil
	}))
	t.Cleanup(func() { prefilterMode, useTimeTokens = prefilterAuto, true })
	walk := func(q query.SearchQuery) []store.ScoredAsset {
		var out []store.ScoredAsset
		p := query.Page{Limit: 7}
		for {
			page, more, err := f.db.Read().Search().Assets(ctx, q, p)
			require.NoError(t, err)
			out = append(out, page...)
			if !more {
				return out
			}
			p.AfterID = page[len(page)-1].ID
		}
	}
	for i := range 80 {
		q := query.SearchQuery{Filter: query.AssetFilter{LibraryID: f.lib}, Terms: []query.SearchTerm{{words[rng.IntN(len(words))]}}}
		if i%3 == 0 { // a person's name, alone or with a word
			name := []string{"ann", "bob", "cid"}[rng.IntN(3)]
			q.Terms = append(q.Terms[:rng.IntN(2)], query.SearchTerm{name})
		}
		for _, term := range q.Terms {
			names, err := f.db.Read().Search().Names(ctx, f.lib, term)
			require.NoError(t, err)
			q.Names = append(q.Names, names)
		}
		switch i % 4 {
		case 0:
			from := start.Add(time.Duration(rng.IntN(600*24)) * time.Hour)
			aware := rng.IntN(2) == 0
			q.Filter.Capture = catalog.CaptureRange{After: &catalog.TimeBound{Time: from, HasOffset: aware},
				Before: &catalog.TimeBound{Time: from.AddDate(0, 2, 0), HasOffset: aware}, Absolute: aware}
		case 1:
			q.Filter.PersonIDs = []string{people[rng.IntN(len(people))].ID}
		case 2:
			q.Filter.AlbumID = album.ID
		case 3:
			q.Filter.State = query.StateAll
			q.Filter.Capture = catalog.CaptureRange{Before: &catalog.TimeBound{Time: start.AddDate(1, 0, 0)}}
		}
		prefilterMode, useTimeTokens = prefilterNever, false
		direct := walk(q)
		useTimeTokens = true
		require.Equal(t, direct, walk(q), "query %d with the time tokens", i)
		prefilterMode, useTimeTokens = prefilterAlways, false
		plan, err := choosePlan(ctx, sqlConn{f.db.reader}, q)
		require.NoError(t, err)
		if plainExpr(q, "") != "" {
			require.NotNil(t, plan.pre)
		}
		require.Equal(t, direct, walk(q), "query %d prefiltered", i)
		prefilterMode, useTimeTokens = prefilterAuto, true
		require.Equal(t, direct, walk(q), "query %d", i)
	}
}
