package assets

import (
	"context"
	"fmt"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// PurgeLibrary permanently deletes every asset of a library, live or
// trashed, through the same path as Delete (rows, versions, links, events,
// storage credited to the owner, files journaled and removed), a batch of
// catalog.MaxIDs per transaction. It is for deleting an account with its
// libraries; callers decide who may. It is idempotent.
func (s *Service) PurgeLibrary(ctx context.Context, libraryID string) error {
	_, err := s.removeBatches(ctx, func(r store.Repos) ([]catalog.Asset, error) {
		list, _, err := r.Assets().List(ctx, query.AssetFilter{LibraryID: libraryID, State: query.StateAll,
			WithStacked: true}, query.Page{Limit: catalog.MaxIDs})
		return list, err
	})
	if err != nil {
		return fmt.Errorf("purge library %s: %w", libraryID, err)
	}
	return nil
}
