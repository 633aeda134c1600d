package tasks

import (
	"context"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/libraries"
	"github.com/photoctl/photoctl/server/query"
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

// List pages the tasks the caller can see, newest first: those of the
// named library, else of every library the caller can read (library_id
// is a filter here, not the selection rule). With an asset and no
// library, the asset's library is the one listed; an asset the caller
// cannot see is 404.
func (s *Service) List(ctx context.Context, p *catalog.Principal, in ListInput, pg query.Page) ([]catalog.Task, bool, error) {
	f := query.TaskFilter{State: in.State, Kind: in.Kind, AssetID: in.AssetID}
	r := s.store.Read()
	switch {
	case in.LibraryID != "":
		m, err := s.libs.Reach(ctx, r, p, in.LibraryID)
		if err != nil {
			return nil, false, err
		}
		f.LibraryID = m.Library.ID
	case in.AssetID != "":
		a, err := r.Assets().Get(ctx, in.AssetID)
		if err != nil {
			return nil, false, err
		}
		m, err := s.libs.ReachResource(ctx, r, p, a.LibraryID, "asset "+in.AssetID)
		if err != nil {
			return nil, false, err
		}
		f.LibraryID = m.Library.ID
	default:
		ids, err := s.libs.Readable(ctx, r, p)
		if err != nil {
			return nil, false, err
		}
		f.LibraryIDs = ids
	}
	return r.Tasks().List(ctx, f, pg)
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
