package mcpapi

import (
	"context"

	"github.com/photoctl/photoctl/server/albums"
	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/httpapi/convert"
	"github.com/photoctl/photoctl/server/people"
)

// The tools that change the library: albums, asset fields, trash, people.

func (b backend) CreateAlbum(ctx context.Context, libraryID, name string) (*api.Album, bool, error) {
	a, created, err := b.d.Albums.Create(ctx, b.p, albums.CreateInput{LibraryID: libraryID,
		LibraryLoc: []any{"arguments", "library_id"}, Name: name})
	if err != nil {
		return nil, false, err
	}
	out := convert.Album(a)
	return &out, created, nil
}

func (b backend) AddToAlbum(ctx context.Context, albumID string, assetIDs []string) (*api.Album, error) {
	return one(convert.Album)(b.d.Albums.AddAssets(ctx, b.p, albumID, assetIDs))
}

func (b backend) RemoveFromAlbum(ctx context.Context, albumID string, assetIDs []string) (*api.Album, error) {
	return one(convert.Album)(b.d.Albums.RemoveAssets(ctx, b.p, albumID, assetIDs))
}

func (b backend) BulkUpdate(ctx context.Context, updates []api.AssetUpdate) error {
	return b.d.Assets.BulkUpdate(ctx, b.p, convert.FromUpdates(updates))
}

// Trash and Restore take the library like the HTTP bodies do: when one
// is named, every asset must be in it (else 422; a library the caller
// cannot read is 404), and nothing is written otherwise.
func (b backend) Trash(ctx context.Context, libraryID string, ids []string) error {
	return b.d.Assets.TrashIn(ctx, b.p, libraryID, ids)
}

func (b backend) Restore(ctx context.Context, libraryID string, ids []string) error {
	return b.d.Assets.RestoreIn(ctx, b.p, libraryID, ids)
}

func (b backend) RenamePerson(ctx context.Context, id, name string) (*api.Person, error) {
	return one(convert.Person)(b.d.People.Patch(ctx, b.p, id, people.Update{Name: catalog.Patch[string]{Set: true, Value: &name}}))
}

func (b backend) MergePeople(ctx context.Context, into string, ids []string) (*api.Person, error) {
	return one(convert.Person)(b.d.People.Merge(ctx, b.p, into, ids))
}
