package assets

import (
	"context"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// TrashIn is Trash of assets that must all be in library libraryID ("" for
// any the caller reaches; see forEachIn).
func (s *Service) TrashIn(ctx context.Context, p *catalog.Principal, libraryID string, ids []string) error {
	return s.setTrashed(ctx, p, libraryID, ids, true)
}

// RestoreIn is Restore of assets that must all be in library libraryID
// ("" for any the caller reaches; see forEachIn).
func (s *Service) RestoreIn(ctx context.Context, p *catalog.Principal, libraryID string, ids []string) error {
	return s.setTrashed(ctx, p, libraryID, ids, false)
}

// forEachIn is forEach for a bulk request that may name its library in
// the query. A named library is checked first: a malformed id is a 422, a
// library the caller cannot read a 404 (a 403 when the credential's scope
// leaves it out). Then an asset outside it fails the whole batch with a
// 422 at its position, as an unknown one does: the caller said where the
// assets are, and acting elsewhere would surprise them.
func (s *Service) forEachIn(ctx context.Context, r store.Repos, p *catalog.Principal, libraryID string, ids []string,
	n need, what string) ([]*catalog.Asset, error) {
	if libraryID != "" {
		if !catalog.HasPrefix(libraryID, catalog.PrefixLibrary) {
			return nil, catalog.InvalidField("value_error", "library_id must be a library id (lib_…)", libraryID,
				"query", "library_id")
		}
		if _, err := s.libs.Reach(ctx, r, p, libraryID); err != nil {
			return nil, err
		}
	}
	list, err := s.forEach(ctx, r, p, ids, n, what, idsLoc)
	if err != nil || libraryID == "" {
		return list, err
	}
	for _, a := range list {
		if a.LibraryID != libraryID {
			i := 0
			for i < len(ids) && ids[i] != a.ID {
				i++
			}
			return nil, catalog.InvalidField("value_error", "the asset is not in library "+libraryID, a.ID, idsLoc(i)...)
		}
	}
	return list, nil
}
