package immich

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/photoctl/photoctl/server/albums"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
)

// listBatch is the page size of the lists the layer reads whole (Immich
// answers albums and album assets unpaged).
const listBatch = 200

// Bulk id error reasons (Immich's BulkIdErrorReason).
const (
	ReasonDuplicate = "duplicate"
	ReasonNotFound  = "not_found"
	ReasonUnknown   = "unknown"
)

// Albums lists every album of the layer's library, newest first; with an
// asset id, only the albums that show it.
func (s *Service) Albums(ctx context.Context, p *catalog.Principal, assetID string) ([]catalog.Album, error) {
	if assetID != "" {
		if err := CheckID(catalog.PrefixAsset, assetID, "query", "assetId"); err != nil {
			return nil, err
		}
	}
	m, err := s.Library(ctx, p)
	if err != nil {
		return nil, err
	}
	var out []catalog.Album
	pg := query.Page{Limit: listBatch}
	for {
		list, more, err := s.albums.List(ctx, p, albums.ListInput{LibraryID: m.Library.ID, AssetID: assetID}, pg)
		if err != nil {
			return nil, err
		}
		out = append(out, list...)
		if !more {
			return out, nil
		}
		pg.AfterID = list[len(list)-1].ID
	}
}

// CreateAlbum applies the native named create in the layer's library (an
// album of that name is answered, not doubled), then adds assetIDs.
func (s *Service) CreateAlbum(ctx context.Context, p *catalog.Principal, name string, description *string, assetIDs []string) (*catalog.Album, error) {
	if err := CheckIDs(catalog.PrefixAsset, assetIDs, "body", "assetIds"); err != nil {
		return nil, err
	}
	m, err := s.Library(ctx, p)
	if err != nil {
		return nil, err
	}
	al, _, err := s.albums.Create(ctx, p, albums.CreateInput{LibraryID: m.Library.ID, Name: name, Description: description})
	if err != nil {
		return nil, renameLoc(err, "name", "albumName")
	}
	if len(assetIDs) == 0 {
		return al, nil
	}
	if _, err := s.AddAssets(ctx, p, al.ID, assetIDs); err != nil {
		return nil, err
	}
	return s.albums.Get(ctx, p, al.ID)
}

// Album reads one album of the layer's library; an album of another
// library is not found here.
func (s *Service) Album(ctx context.Context, p *catalog.Principal, id string) (*catalog.Album, error) {
	if err := CheckID(catalog.PrefixAlbum, id, "path", "id"); err != nil {
		return nil, err
	}
	m, err := s.Library(ctx, p)
	if err != nil {
		return nil, err
	}
	al, err := s.albums.Get(ctx, p, id)
	if err == nil && al.LibraryID != m.Library.ID {
		err = fmt.Errorf("album %s is not in the library of the Immich layer: %w", id, catalog.ErrNotFound)
	}
	return al, err
}

// AlbumAssets lists every live asset of an album the caller read with
// Album, in the order they were added.
func (s *Service) AlbumAssets(ctx context.Context, al *catalog.Album) ([]catalog.Asset, error) {
	var out []catalog.Asset
	pg := query.Page{Limit: listBatch}
	for {
		list, more, err := s.store.Read().Assets().List(ctx, query.AssetFilter{LibraryID: al.LibraryID,
			AlbumID: al.ID}, pg)
		if err != nil {
			return nil, err
		}
		out = append(out, list...)
		if !more {
			return out, nil
		}
		pg.AfterID = list[len(list)-1].ID
	}
}

// AddAssets links assets to an album of the layer's library and answers
// per id, as Immich does: an asset already in the album is a duplicate, one
// that is not a live asset of the library not_found; the rest are added
// through the native service (its events included), catalog.MaxIDs at a
// time. Malformed ids are a validation error, and a caller who may not
// change the album gets the error itself, before any duplicate is told.
func (s *Service) AddAssets(ctx context.Context, p *catalog.Principal, albumID string, ids []string) ([]BulkIDResult, error) {
	if err := CheckIDs(catalog.PrefixAsset, ids, "body", "ids"); err != nil {
		return nil, err
	}
	al, err := s.Album(ctx, p, albumID)
	if err != nil {
		return nil, err
	}
	if _, err := s.writable(ctx, p, "adding assets to albums"); err != nil {
		return nil, err
	}
	out := make([]BulkIDResult, len(ids))
	var addable []int // positions in ids
	seen := make(map[string]bool, len(ids))
	r := s.store.Read()
	for start := 0; start < len(ids); start += catalog.MaxIDs {
		end := min(start+catalog.MaxIDs, len(ids))
		chunk := ids[start:end]
		links, err := r.Albums().Links(ctx, al.ID, chunk)
		if err != nil {
			return nil, err
		}
		linked := make(map[string]bool, len(links))
		for _, l := range links {
			linked[l.AssetID] = true
		}
		found, err := r.Assets().GetMany(ctx, chunk)
		if err != nil {
			return nil, err
		}
		live := make(map[string]bool, len(found))
		for _, a := range found {
			live[a.ID] = a.LibraryID == al.LibraryID && a.TrashedAt == nil
		}
		for i, id := range chunk {
			out[start+i].ID = id
			switch {
			case linked[id] || seen[id]:
				out[start+i].Error = reason(ReasonDuplicate)
			case !live[id]:
				out[start+i].Error = reason(ReasonNotFound)
			default:
				addable = append(addable, start+i)
			}
			seen[id] = true
		}
	}
	for batch := range slices.Chunk(addable, catalog.MaxIDs) {
		if err := s.add(ctx, p, al.ID, ids, batch, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// add adds the assets at positions batch of ids and records each outcome
// in out. Should an asset change between the checks and the write (trashed
// meanwhile), the batch is retried one asset at a time.
func (s *Service) add(ctx context.Context, p *catalog.Principal, albumID string, ids []string, batch []int, out []BulkIDResult) error {
	chunk := make([]string, len(batch))
	for i, at := range batch {
		chunk[i] = ids[at]
	}
	_, err := s.albums.AddAssets(ctx, p, albumID, chunk)
	var ve *catalog.ValidationError
	switch {
	case err == nil:
		for _, at := range batch {
			out[at].Success = true
		}
		return nil
	case errors.As(err, &ve) && len(batch) > 1:
		for _, at := range batch {
			if err := s.add(ctx, p, albumID, ids, []int{at}, out); err != nil {
				return err
			}
		}
		return nil
	case errors.As(err, &ve):
		out[batch[0]].Error = reason(ReasonUnknown)
		return nil
	}
	return err
}

func reason(r string) *string { return &r }

// renameLoc rewrites the last element of a validation error's location
// from a native field name to the Immich one.
func renameLoc(err error, from, to string) error {
	var ve *catalog.ValidationError
	if !errors.As(err, &ve) {
		return err
	}
	for i := range ve.Fields {
		if loc := ve.Fields[i].Loc; len(loc) > 0 && loc[len(loc)-1] == from {
			loc[len(loc)-1] = to
		}
	}
	return err
}
