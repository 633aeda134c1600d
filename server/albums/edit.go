package albums

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// CreateInput is an album create request. LibraryLoc locates where the
// library id came from, for the selection rule's 422.
type CreateInput struct {
	LibraryID   string
	LibraryLoc  []any
	Name        string
	Description *string
}

// Create applies the named-create rule within the selected library: a name
// already used there returns that album (created false), unless a supplied
// description differs from its own (409).
func (s *Service) Create(ctx context.Context, p *catalog.Principal, in CreateInput) (*catalog.Album, bool, error) {
	name, err := catalog.CleanName(in.Name, "body", "name")
	if err != nil {
		return nil, false, err
	}
	if err := checkDescription(in.Description); err != nil {
		return nil, false, err
	}
	m, err := s.libs.Select(ctx, p, in.LibraryID, in.LibraryLoc...)
	if err != nil {
		return nil, false, err
	}
	if err := m.RequireWrite("creating albums"); err != nil {
		return nil, false, err
	}
	var album *catalog.Album
	var created bool
	err = s.store.InLibraryTx(ctx, m.Library.ID, func(r store.Repos) error {
		var err error
		album, created, err = catalog.NamedCreate(
			func() (*catalog.Album, error) {
				return r.Albums().FindByName(ctx, m.Library.ID, catalog.NameKey(name))
			},
			func(a *catalog.Album) error {
				if in.Description != nil && *in.Description != a.Description {
					return fmt.Errorf("album %q exists with another description: %w", a.Name, catalog.ErrConflict)
				}
				return nil
			},
			func() (*catalog.Album, error) {
				now := s.now().UTC()
				a := &catalog.Album{ID: catalog.NewID(catalog.PrefixAlbum, now), LibraryID: m.Library.ID,
					Name: name, CreatedAt: now, UpdatedAt: now}
				if in.Description != nil {
					a.Description = *in.Description
				}
				if err := r.Albums().Create(ctx, a); err != nil {
					return nil, err
				}
				if err := event(ctx, r, "album.created", a.LibraryID, a.ID, map[string]any{"name": a.Name}, now); err != nil {
					return nil, err
				}
				return r.Albums().Get(ctx, a.ID) // as stored
			},
		)
		return err
	})
	return album, created, err
}

func checkDescription(d *string) error {
	if d != nil && len(*d) > maxDescription {
		return catalog.InvalidField("string_too_long", "description must be at most 10000 bytes", nil, "body", "description")
	}
	return nil
}

// Change is an album edit: an unset field stays. A name cannot be cleared;
// a description set to null becomes empty.
type Change struct {
	Name        catalog.Patch[string]
	Description catalog.Patch[string]
}

// Update renames an album or edits its description. Renaming to a name
// another album of the library has is a 409.
func (s *Service) Update(ctx context.Context, p *catalog.Principal, id string, ch Change) (*catalog.Album, error) {
	var name string
	if ch.Name.Set {
		if ch.Name.Value == nil {
			return nil, catalog.InvalidField("string_type", "name cannot be null", nil, "body", "name")
		}
		var err error
		if name, err = catalog.CleanName(*ch.Name.Value, "body", "name"); err != nil {
			return nil, err
		}
	}
	if err := checkDescription(ch.Description.Value); err != nil {
		return nil, err
	}
	return s.edit(ctx, p, id, "editing albums", func(r store.Repos, a *catalog.Album) ([]string, error) {
		var fields []string
		if ch.Name.Set && name != a.Name {
			a.Name, fields = name, append(fields, "name")
		}
		if ch.Description.Set {
			d := ""
			if ch.Description.Value != nil {
				d = *ch.Description.Value
			}
			if d != a.Description {
				a.Description, fields = d, append(fields, "description")
			}
		}
		return fields, nil
	})
}

// SetCover chooses an album's cover: a live member, or nil to let the album
// pick (its most recently captured live member).
func (s *Service) SetCover(ctx context.Context, p *catalog.Principal, id string, assetID *string) (*catalog.Album, error) {
	return s.edit(ctx, p, id, "editing albums", func(r store.Repos, a *catalog.Album) ([]string, error) {
		if assetID != nil {
			links, err := r.Albums().Links(ctx, a.ID, []string{*assetID})
			if err != nil {
				return nil, err
			}
			var live bool
			if len(links) == 1 {
				asset, err := r.Assets().Get(ctx, *assetID)
				if err != nil {
					return nil, err
				}
				live = asset.TrashedAt == nil
			}
			if !live {
				return nil, catalog.InvalidField("value_error", "the cover must be an asset of this album that is not in the trash",
					*assetID, "body", "asset_id")
			}
		}
		if (a.CoverAssetID == nil) == (assetID == nil) && (assetID == nil || *a.CoverAssetID == *assetID) {
			return nil, nil
		}
		a.CoverAssetID = assetID
		return []string{"cover_asset_id"}, nil
	})
}

// edit loads an album for writing, applies change, and writes it with an
// album.updated event naming the fields that changed (nothing is written
// when none did). It returns the album as stored.
func (s *Service) edit(ctx context.Context, p *catalog.Principal, id, what string,
	change func(store.Repos, *catalog.Album) ([]string, error)) (*catalog.Album, error) {
	var out *catalog.Album
	err := s.inAlbumTx(ctx, id, func(r store.Repos) error {
		a, err := s.album(ctx, r, p, id, true, what)
		if err != nil {
			return err
		}
		fields, err := change(r, a)
		if err != nil || len(fields) == 0 {
			out = a
			return err
		}
		a.UpdatedAt = s.now().UTC()
		if err := r.Albums().Update(ctx, a); err != nil {
			if errors.Is(err, catalog.ErrConflict) {
				return fmt.Errorf("this library already has an album named %q: %w", a.Name, catalog.ErrConflict)
			}
			return err
		}
		slices.Sort(fields)
		if err := event(ctx, r, "album.updated", a.LibraryID, a.ID, map[string]any{"fields": fields}, a.UpdatedAt); err != nil {
			return err
		}
		out, err = r.Albums().Get(ctx, a.ID)
		return err
	})
	return out, err
}

// Delete removes an album and its links; the assets stay.
func (s *Service) Delete(ctx context.Context, p *catalog.Principal, id string) error {
	return s.inAlbumTx(ctx, id, func(r store.Repos) error {
		a, err := s.album(ctx, r, p, id, true, "deleting albums")
		if err != nil {
			return err
		}
		// Its links go first, each with its album_asset.deleted event, so a
		// client following the feed sees every link change.
		links, err := r.Albums().AlbumLinks(ctx, a.ID)
		if err != nil {
			return err
		}
		now := s.now().UTC()
		if err := unlink(ctx, r, links, now); err != nil {
			return err
		}
		if err := r.Albums().Delete(ctx, a.ID); err != nil {
			return err
		}
		return event(ctx, r, "album.deleted", a.LibraryID, a.ID, map[string]any{"name": a.Name}, now)
	})
}
