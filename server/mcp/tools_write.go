package mcp

import (
	"context"
	"fmt"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/catalog"
)

var writeTools = []tool{
	{name: "create_album", action: catalog.ActionAlbumWrite, cost: costWrite, write: true, add: add(createAlbum),
		desc: "Create an album in a library. An album with that name already there is returned instead (created false)."},
	{name: "add_to_album", action: catalog.ActionAlbumWrite, cost: costWrite, write: true, add: add(addToAlbum),
		desc: "Add up to 100 assets of the album's library to an album; ones already in it stay once."},
	{name: "remove_from_album", action: catalog.ActionAlbumWrite, cost: costWrite, write: true, add: add(removeFromAlbum),
		desc: "Remove up to 100 assets from an album; the assets themselves stay in the library."},
	{name: "edit_assets", action: catalog.ActionAssetUpdate, cost: costWrite, write: true, add: add(editAssets),
		desc: "Rate, describe, locate or re-date up to 200 assets at once. All edits apply together or none " +
			"does (one bad item rejects the batch). Fields left out stay; clear resets a field to the file's own value."},
	{name: "trash_assets", action: catalog.ActionAssetTrash, cost: costWrite, write: true, add: add(trashAssets),
		desc: "Move up to 100 assets to the trash, where they can be restored until the retention window ends. " +
			"Nothing is deleted permanently through this interface."},
	{name: "restore_assets", action: catalog.ActionAssetTrash, cost: costWrite, write: true, add: add(restoreAssets),
		desc: "Bring up to 100 trashed assets back."},
	{name: "name_person", action: catalog.ActionPersonWrite, cost: costWrite, write: true, add: add(namePerson),
		desc: "Give a person a name (or rename them)."},
	{name: "merge_people", action: catalog.ActionPersonWrite, cost: costWrite, write: true, add: add(mergePeople),
		desc: "Merge people that are the same person: their faces move to into_person_id and they are removed."},
}

// CreateAlbumInput is create_album's arguments.
type CreateAlbumInput struct {
	LibraryID string `json:"library_id,omitempty" jsonschema:"the library (lib_...); optional with one library or a default"`
	Name      string `json:"name" jsonschema:"the album's name"`
}

// AlbumResult is an album write's answer.
type AlbumResult struct {
	Album   AlbumSummary `json:"album"`
	Created bool         `json:"created,omitempty"`
}

func createAlbum(ctx context.Context, b Backend, in CreateAlbumInput) (AlbumResult, error) {
	a, created, err := b.CreateAlbum(ctx, in.LibraryID, in.Name)
	if err != nil {
		return AlbumResult{}, err
	}
	return AlbumResult{Album: albumSummary(a), Created: created}, nil
}

// AlbumAssetsInput names an album and assets.
type AlbumAssetsInput struct {
	AlbumID  string   `json:"album_id" jsonschema:"the album (album_...)"`
	AssetIDs []string `json:"asset_ids" jsonschema:"1 to 100 assets (asset_...)"`
}

func addToAlbum(ctx context.Context, b Backend, in AlbumAssetsInput) (AlbumResult, error) {
	a, err := b.AddToAlbum(ctx, in.AlbumID, in.AssetIDs)
	if err != nil {
		return AlbumResult{}, err
	}
	return AlbumResult{Album: albumSummary(a)}, nil
}

func removeFromAlbum(ctx context.Context, b Backend, in AlbumAssetsInput) (AlbumResult, error) {
	a, err := b.RemoveFromAlbum(ctx, in.AlbumID, in.AssetIDs)
	if err != nil {
		return AlbumResult{}, err
	}
	return AlbumResult{Album: albumSummary(a)}, nil
}

// AssetEdit is one item of edit_assets.
type AssetEdit struct {
	ID               string   `json:"id" jsonschema:"the asset (asset_...)"`
	Rating           *int     `json:"rating,omitempty" jsonschema:"0 to 5 stars"`
	Description      *string  `json:"description,omitempty" jsonschema:"the user's description"`
	Latitude         *float64 `json:"latitude,omitempty" jsonschema:"with longitude: where it was taken"`
	Longitude        *float64 `json:"longitude,omitempty"`
	OriginalDatetime *string  `json:"original_datetime,omitempty" jsonschema:"capture time, e.g. 2024-06-01T12:30:00 or 2024-06-01T12:30:00+02:00"`
	Clear            []string `json:"clear,omitempty" jsonschema:"fields to reset: rating, description, location, original_datetime"`
}

// EditInput is edit_assets' arguments.
type EditInput struct {
	Edits []AssetEdit `json:"edits" jsonschema:"1 to 200 edits, applied all together or not at all"`
}

// EditResult is edit_assets' answer.
type EditResult struct {
	Updated int `json:"updated"`
}

func editAssets(ctx context.Context, b Backend, in EditInput) (EditResult, error) {
	updates := make([]api.AssetUpdate, len(in.Edits))
	for i, e := range in.Edits {
		ch := api.AssetChange{}
		set := func(o *api.Optional[float64], v *float64) {
			if v != nil {
				*o = api.Optional[float64]{Set: true, Value: v}
			}
		}
		if e.Rating != nil {
			ch.Rating = api.Optional[int]{Set: true, Value: e.Rating}
		}
		if e.Description != nil {
			ch.Description = api.Optional[string]{Set: true, Value: e.Description}
		}
		if e.OriginalDatetime != nil {
			ch.OriginalDatetime = api.Optional[string]{Set: true, Value: e.OriginalDatetime}
		}
		set(&ch.Latitude, e.Latitude)
		set(&ch.Longitude, e.Longitude)
		for _, f := range e.Clear {
			if !ch.Clear(f) {
				return EditResult{}, fmt.Errorf("edits[%d].clear: %q is not rating, description, location or original_datetime", i, f)
			}
		}
		updates[i] = api.AssetUpdate{ID: e.ID, Change: ch}
	}
	if err := b.BulkUpdate(ctx, updates); err != nil {
		return EditResult{}, err
	}
	return EditResult{Updated: len(updates)}, nil
}

// AssetIDsInput names assets of a library.
type AssetIDsInput struct {
	LibraryID string   `json:"library_id,omitempty" jsonschema:"the library (lib_...); optional with one library or a default"`
	AssetIDs  []string `json:"asset_ids" jsonschema:"1 to 100 assets (asset_...)"`
}

// AssetIDsResult lists the assets a trash or restore moved.
type AssetIDsResult struct {
	AssetIDs []string `json:"asset_ids"`
}

func trashAssets(ctx context.Context, b Backend, in AssetIDsInput) (AssetIDsResult, error) {
	if err := b.Trash(ctx, in.LibraryID, in.AssetIDs); err != nil {
		return AssetIDsResult{}, err
	}
	return AssetIDsResult{AssetIDs: append([]string{}, in.AssetIDs...)}, nil
}

func restoreAssets(ctx context.Context, b Backend, in AssetIDsInput) (AssetIDsResult, error) {
	if err := b.Restore(ctx, in.LibraryID, in.AssetIDs); err != nil {
		return AssetIDsResult{}, err
	}
	return AssetIDsResult{AssetIDs: append([]string{}, in.AssetIDs...)}, nil
}

// NamePersonInput is name_person's arguments.
type NamePersonInput struct {
	PersonID string `json:"person_id" jsonschema:"the person (person_...)"`
	Name     string `json:"name" jsonschema:"the name to give"`
}

// PersonResult is a person write's answer.
type PersonResult struct {
	Person PersonSummary `json:"person"`
}

func namePerson(ctx context.Context, b Backend, in NamePersonInput) (PersonResult, error) {
	p, err := b.RenamePerson(ctx, in.PersonID, in.Name)
	if err != nil {
		return PersonResult{}, err
	}
	return PersonResult{Person: personSummary(p)}, nil
}

// MergeInput is merge_people's arguments.
type MergeInput struct {
	IntoPersonID string   `json:"into_person_id" jsonschema:"the person who stays (person_...)"`
	PersonIDs    []string `json:"person_ids" jsonschema:"the people merged into them and removed"`
}

func mergePeople(ctx context.Context, b Backend, in MergeInput) (PersonResult, error) {
	p, err := b.MergePeople(ctx, in.IntoPersonID, in.PersonIDs)
	if err != nil {
		return PersonResult{}, err
	}
	return PersonResult{Person: personSummary(p)}, nil
}
