package tasks

import (
	"context"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/libraries"
	"github.com/photoctl/photoctl/server/store"
)

// Service reads tasks for the API. A task belongs to its library: only
// members who can read the library see it, and a task of another library
// reads as not found.
type Service struct {
	store store.Store
	libs  *libraries.Service
}

// NewService returns the task reader.
func NewService(st store.Store, libs *libraries.Service) *Service {
	return &Service{store: st, libs: libs}
}

// ListInput is a task list request: the library (selection rule) and the
// filters.
type ListInput struct {
	LibraryID string
	State     catalog.TaskState
	Kind      string
	AssetID   string
}

// List pages the tasks of the selected library, newest first. With an
// asset and no library, the asset's library is the one listed, so a
// caller with several libraries can ask about one asset without naming it;
// an asset the caller cannot see is 404.
func (s *Service) List(ctx context.Context, p *catalog.Principal, in ListInput, pg store.Page) ([]catalog.Task, bool, error) {
	var libraryID string
	if in.AssetID != "" && in.LibraryID == "" {
		r := s.store.Read()
		a, err := r.Assets().Get(ctx, in.AssetID)
		if err != nil {
			return nil, false, err
		}
		m, err := s.libs.ReachResource(ctx, r, p, a.LibraryID, "asset "+in.AssetID)
		if err != nil {
			return nil, false, err
		}
		libraryID = m.Library.ID
	} else {
		m, err := s.libs.Select(ctx, p, in.LibraryID, "query", "library_id")
		if err != nil {
			return nil, false, err
		}
		libraryID = m.Library.ID
	}
	return s.store.Read().Tasks().List(ctx, store.TaskFilter{LibraryID: libraryID, State: in.State,
		Kind: in.Kind, AssetID: in.AssetID}, pg)
}

// Get reads one task the caller can see.
func (s *Service) Get(ctx context.Context, p *catalog.Principal, id string) (*catalog.Task, error) {
	r := s.store.Read()
	t, err := r.Tasks().Get(ctx, id)
	if err != nil {
		return nil, err
	}
	if _, err := s.libs.ReachResource(ctx, r, p, t.LibraryID, "task "+id); err != nil {
		return nil, err
	}
	return t, nil
}
