// Package events reads the change feed (version 2): every change to a
// library's content, in commit order.
package events

import (
	"context"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/libraries"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// Service reads the event feed.
type Service struct {
	store store.Store
	libs  *libraries.Service
}

// NewService returns an event feed reader.
func NewService(st store.Store, libs *libraries.Service) *Service {
	return &Service{store: st, libs: libs}
}

// List pages the events of the selected library, oldest first. Only
// members who can read the library see its events.
func (s *Service) List(ctx context.Context, p *catalog.Principal, libraryID string, pg query.Page) ([]catalog.Event, bool, error) {
	m, err := s.libs.Select(ctx, p, libraryID, "query", "library_id")
	if err != nil {
		return nil, false, err
	}
	return s.store.Read().Events().List(ctx, m.Library.ID, pg)
}
