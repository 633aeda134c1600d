// Package assets holds the asset use cases: upload with deduplication,
// reads and lists, metadata edits, trash, restore, permanent deletion and
// downloads. Access is checked here, against the caller's role in the
// asset's library.
package assets

import (
	"context"
	"encoding/json"
	"time"

	"github.com/photoctl/photoctl/server/blob"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/libraries"
	"github.com/photoctl/photoctl/server/store"
)

// Config holds the limits of the asset service.
type Config struct {
	MaxUploadBytes int64
	TrashRetention time.Duration
}

// Service implements the asset use cases.
type Service struct {
	store store.Store
	blobs *blob.Store
	libs  *libraries.Service
	cfg   Config
	now   func() time.Time
}

// NewService returns an asset service.
func NewService(st store.Store, blobs *blob.Store, libs *libraries.Service, cfg Config, now func() time.Time) *Service {
	return &Service{store: st, blobs: blobs, libs: libs, cfg: cfg, now: now}
}

// need names the least role an operation requires.
type need int

const (
	needRead need = iota
	needWrite
	needOwner
)

// authorize checks the caller's role in a library for an operation.
func authorize(m *catalog.Membership, n need, what string) error {
	switch n {
	case needWrite:
		return m.RequireWrite(what)
	case needOwner:
		return m.RequireOwner(what)
	}
	return nil
}

// asset reads one asset the caller may act on. An asset in a library the
// caller does not belong to reads as not found.
func (s *Service) asset(ctx context.Context, r store.Repos, p *catalog.Principal, id string, n need, what string) (*catalog.Asset, *catalog.Membership, error) {
	a, err := r.Assets().Get(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	m, err := s.libs.ReachResource(ctx, r, p, a.LibraryID, "asset "+id)
	if err != nil {
		return nil, nil, err
	}
	return a, m, authorize(m, n, what)
}

// assetsLibrary is the library of the assets ids names, to scope a write
// transaction on them (store.AssetsLibrary): the transactions of other
// libraries run beside it. Assets in several libraries, or one that is
// unknown, take InTx as before.
func (s *Service) assetsLibrary(ctx context.Context, ids []string) string {
	return store.AssetsLibrary(ctx, s.store, ids...)
}

// event appends a change event for an asset inside the caller's transaction.
func event(ctx context.Context, r store.Repos, typ string, a *catalog.Asset, data any, now time.Time) error {
	body, err := json.Marshal(data)
	if err != nil {
		return err
	}
	return r.Events().Append(ctx, &catalog.Event{ID: catalog.NewID(catalog.PrefixEvent, now), Type: typ,
		LibraryID: a.LibraryID, ResourceID: a.ID, Data: body, CreatedAt: now})
}
