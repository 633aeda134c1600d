// Package albums holds the album use cases: named creates, reads and lists,
// rename, description and cover edits, deletion, adding and removing
// assets, and the album-asset link list. Access is checked here, against
// the caller's role in the album's library: viewers read, collaborators and
// owners write.
package albums

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/libraries"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// Service implements the album use cases.
type Service struct {
	store store.Store
	libs  *libraries.Service
	now   func() time.Time
}

// NewService returns an album service.
func NewService(st store.Store, libs *libraries.Service, now func() time.Time) *Service {
	return &Service{store: st, libs: libs, now: now}
}

// maxDescription bounds an album description, as asset descriptions.
const maxDescription = 10000

// album reads one album the caller can reach inside r; write also requires
// a role that may change it. An album of a library the caller does not
// belong to reads as not found.
func (s *Service) album(ctx context.Context, r store.Repos, p *catalog.Principal, id string, write bool, what string) (*catalog.Album, error) {
	a, err := r.Albums().Get(ctx, id)
	if err != nil {
		return nil, err
	}
	m, err := s.libs.ReachResource(ctx, r, p, a.LibraryID, "album "+id)
	if err != nil {
		return nil, err
	}
	if write {
		return a, m.RequireWrite(what)
	}
	return a, nil
}

// inAlbumTx runs fn in a write transaction of album id's library, beside
// the other libraries' writes: an album, its links and their assets are
// all of its library. An album that cannot be read leaves fn to meet the
// error in InTx, as before.
func (s *Service) inAlbumTx(ctx context.Context, id string, fn func(store.Repos) error) error {
	lib := ""
	if a, err := s.store.Read().Albums().Get(ctx, id); err == nil {
		lib = a.LibraryID
	}
	return s.store.InLibraryTx(ctx, lib, fn)
}

// Get reads one album the caller can see.
func (s *Service) Get(ctx context.Context, p *catalog.Principal, id string) (*catalog.Album, error) {
	return s.album(ctx, s.store.Read(), p, id, false, "reading")
}

// ListInput is an album list request: the library (selection rule) and an
// optional asset whose albums to list.
type ListInput struct {
	LibraryID string
	AssetID   string
}

// List pages the albums of the selected library, newest first. With an
// asset, only the albums that show it; an asset outside the library is a
// 404.
func (s *Service) List(ctx context.Context, p *catalog.Principal, in ListInput, pg query.Page) ([]catalog.Album, bool, error) {
	m, err := s.libs.Select(ctx, p, in.LibraryID, "query", "library_id")
	if err != nil {
		return nil, false, err
	}
	r := s.store.Read()
	if in.AssetID != "" {
		if err := assetInLibrary(ctx, r, in.AssetID, m.Library.ID); err != nil {
			return nil, false, err
		}
	}
	return r.Albums().List(ctx, query.AlbumFilter{LibraryID: m.Library.ID, AssetID: in.AssetID}, pg)
}

// assetInLibrary is a 404 unless the asset is in the library.
func assetInLibrary(ctx context.Context, r store.Repos, assetID, libraryID string) error {
	a, err := r.Assets().Get(ctx, assetID)
	if err == nil && a.LibraryID != libraryID {
		err = catalog.ErrNotFound
	}
	if errors.Is(err, catalog.ErrNotFound) {
		return fmt.Errorf("asset %s is not in this library: %w", assetID, catalog.ErrNotFound)
	}
	return err
}

// event appends a change event inside the caller's transaction.
func event(ctx context.Context, r store.Repos, typ, libraryID, resourceID string, data any, now time.Time) error {
	body, err := json.Marshal(data)
	if err != nil {
		return err
	}
	return r.Events().Append(ctx, &catalog.Event{ID: catalog.NewID(catalog.PrefixEvent, now), Type: typ,
		LibraryID: libraryID, ResourceID: resourceID, Data: body, CreatedAt: now})
}

// InLibrary is a 404 unless album id ("" passes) is in the library; asset
// lists filtered by an album check it first.
func InLibrary(ctx context.Context, r store.Repos, id, libraryID string) error {
	if id == "" {
		return nil
	}
	a, err := r.Albums().Get(ctx, id)
	if err == nil && a.LibraryID != libraryID {
		err = catalog.ErrNotFound
	}
	if errors.Is(err, catalog.ErrNotFound) {
		return fmt.Errorf("album %s is not in this library: %w", id, catalog.ErrNotFound)
	}
	return err
}
