package storetest

import (
	"context"

	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// The album and stack queries that both SQL stores' plan tests explain
// (sqlite/albums_plan_test.go, postgres/albums_plan_test.go): each store
// seeds its own fixture (PostgreSQL plans by statistics, so its fixture is
// larger), runs every case in a transaction it rolls back, records the
// statements, and explains them: none may scan a table, the named index
// must appear in some plan, and a sort is allowed only where SortOK.

// PlanCase is a store call whose statements a plan test explains.
type PlanCase struct {
	Name string
	Run  func(r store.Repos) error
	// Index must appear in the plan of some statement of the call.
	Index string
	// SortOK allows a sort: the rows sorted are one asset's links or
	// albums, one album's or stack's few rows, or a handful of ids.
	SortOK bool
}

// AlbumPlanFixture names the rows of a store's album fixture that the
// cases read and write.
type AlbumPlanFixture struct {
	Lib string
	// Album is an album of many assets; Other an album the cases delete.
	Album, Other string
	// AlbumName is the name of an album of Lib.
	AlbumName string
	// CursorAsset is an asset of Album, Member one with few albums and
	// links, Pair two assets of Album.
	CursorAsset, Member string
	Pair                []string
	// LinkIDs are a few links; AlbumLink a link of Album, LibraryLink one
	// of Lib; AlbumCursor an album of Lib: cursors.
	LinkIDs                             []string
	AlbumLink, LibraryLink, AlbumCursor string
	// Stack is a stack of two assets; StackAddition an asset outside it.
	Stack, StackAddition string
	// LinkKey is the index of album_assets' primary key.
	LinkKey string
}

// AlbumPlanCases are the album, link and stack queries of the store,
// reads and writes, over f.
func AlbumPlanCases(ctx context.Context, f AlbumPlanFixture) []PlanCase {
	lib := f.Lib
	page := query.Page{Limit: 20}
	after := func(id string) query.Page { return query.Page{Limit: 20, AfterID: id} }
	assets := func(r store.Repos, filter query.AssetFilter, p query.Page) error {
		_, _, err := r.Assets().List(ctx, filter, p)
		return err
	}
	links := func(r store.Repos, filter query.AlbumAssetFilter, p query.Page) error {
		_, _, err := r.Albums().ListLinks(ctx, filter, p)
		return err
	}
	albums := func(r store.Repos, filter query.AlbumFilter, p query.Page) error {
		_, _, err := r.Albums().List(ctx, filter, p)
		return err
	}
	return []PlanCase{
		{"an album's assets, first page", func(r store.Repos) error {
			return assets(r, query.AssetFilter{LibraryID: lib, AlbumID: f.Album}, page)
		}, "album_assets_timeline", false},
		{"an album's assets after a cursor, oldest first", func(r store.Repos) error {
			return assets(r, query.AssetFilter{LibraryID: lib, AlbumID: f.Album, Asc: true}, after(f.CursorAsset))
		}, "album_assets_timeline", false},
		{"an album's trashed assets", func(r store.Repos) error {
			return assets(r, query.AssetFilter{LibraryID: lib, AlbumID: f.Album, State: query.StateTrashed,
				MediaType: "image"}, page)
		}, "album_assets_timeline", false},
		{"a library's albums after a cursor", func(r store.Repos) error {
			return albums(r, query.AlbumFilter{LibraryID: lib}, after(f.AlbumCursor))
		}, "albums_library", false},
		{"an asset's albums", func(r store.Repos) error {
			return albums(r, query.AlbumFilter{LibraryID: lib, AssetID: f.Member}, page)
		}, "album_assets_asset", true},
		{"an album by name", func(r store.Repos) error {
			_, err := r.Albums().FindByName(ctx, lib, f.AlbumName)
			return err
		}, "albums_library_name", false},
		{"an album's links, first page", func(r store.Repos) error {
			return links(r, query.AlbumAssetFilter{LibraryID: lib, AlbumID: f.Album}, page)
		}, "album_assets_album", false},
		{"an album's links after a cursor", func(r store.Repos) error {
			return links(r, query.AlbumAssetFilter{LibraryID: lib, AlbumID: f.Album}, after(f.AlbumLink))
		}, "album_assets_album", false},
		{"an asset's links", func(r store.Repos) error {
			return links(r, query.AlbumAssetFilter{LibraryID: lib, AssetID: f.Member}, page)
		}, "album_assets_asset", true},
		{"a library's links after a cursor", func(r store.Repos) error {
			return links(r, query.AlbumAssetFilter{LibraryID: lib}, after(f.LibraryLink))
		}, "album_assets_library", false},
		{"links by id", func(r store.Repos) error {
			return links(r, query.AlbumAssetFilter{LibraryID: lib, IDs: f.LinkIDs}, page)
		}, f.LinkKey, true},
		{"link, unlink and delete", func(r store.Repos) error {
			pair, err := r.Albums().Links(ctx, f.Album, f.Pair)
			if err != nil {
				return err
			}
			if _, err := r.Albums().LinksOfAssets(ctx, []string{f.Member}); err != nil {
				return err
			}
			if _, err := r.Albums().AlbumLinks(ctx, f.Album); err != nil {
				return err
			}
			if err := r.Albums().RemoveLinks(ctx, []string{pair[0].ID}); err != nil {
				return err
			}
			return r.Albums().Delete(ctx, f.Other)
		}, "album_assets_pair", true},
		{"a library's stacks", func(r store.Repos) error {
			_, _, err := r.Stacks().List(ctx, query.StackFilter{LibraryID: lib}, after(f.Stack))
			return err
		}, "stacks_library", true},
		{"a stack's writes", func(r store.Repos) error {
			st, err := r.Stacks().Get(ctx, f.Stack)
			if err != nil {
				return err
			}
			st.AssetIDs = append(st.AssetIDs[1:], f.StackAddition)
			st.CoverAssetID = st.AssetIDs[0]
			if err := r.Stacks().Update(ctx, st); err != nil {
				return err
			}
			return r.Stacks().Delete(ctx, st.ID)
		}, "assets_stack", true},
	}
}
