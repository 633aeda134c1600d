package store

import (
	"context"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
)

// Albums stores albums and their links to assets. Every method is scoped by
// the ids it is given; callers check library access first.
//
// Reads fill the derived fields of catalog.Album (count, dates, cover) from
// the live members at the time of the read. Links of trashed assets are
// kept but hidden: lists and counts skip them until the asset is restored.
// Deleting an album removes its links; deleting an asset removes its links
// (and clears it as a chosen cover).
type Albums interface {
	// Create inserts a; a second album with the same name key in the
	// library is ErrConflict.
	Create(ctx context.Context, a *catalog.Album) error
	Get(ctx context.Context, id string) (*catalog.Album, error)
	// FindByName finds a library's album by name key (catalog.NameKey).
	FindByName(ctx context.Context, libraryID, nameKey string) (*catalog.Album, error)
	// List pages the albums matching f, newest first (by id).
	List(ctx context.Context, f query.AlbumFilter, p query.Page) ([]catalog.Album, bool, error)
	// Update writes name, description, cover and updated_at; a name key
	// taken by another album of the library is ErrConflict.
	Update(ctx context.Context, a *catalog.Album) error
	// Delete removes the album and its links.
	Delete(ctx context.Context, id string) error

	// AddLink inserts a link; the asset's capture time and state are copied
	// from its row. A second link of the same pair is ErrConflict.
	AddLink(ctx context.Context, l *catalog.AlbumAsset) error
	// Links returns the album's links to these assets (any state).
	Links(ctx context.Context, albumID string, assetIDs []string) ([]catalog.AlbumAsset, error)
	// AlbumLinks returns every link of the album (any state).
	AlbumLinks(ctx context.Context, albumID string) ([]catalog.AlbumAsset, error)
	// LinksOfAssets returns every link of these assets (any state).
	LinksOfAssets(ctx context.Context, assetIDs []string) ([]catalog.AlbumAsset, error)
	// RemoveLinks deletes links by id.
	RemoveLinks(ctx context.Context, ids []string) error
	// ListLinks pages the links of live assets matching f, newest first (by
	// id).
	ListLinks(ctx context.Context, f query.AlbumAssetFilter, p query.Page) ([]catalog.AlbumAsset, bool, error)
}
