package postgres

import (
	"context"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// assets is the asset repository over one conn, as the tests build it:
// the repository itself is sqlstore's (issue 34), over that conn through
// newRepos, so a recorder there sees the statements it runs.
type assets struct{ q conn }

var _ store.Assets = assets{}

func (s assets) r() store.Assets { return newRepos(s.q).Assets() }

func (s assets) Create(ctx context.Context, a *catalog.Asset) error { return s.r().Create(ctx, a) }

func (s assets) Get(ctx context.Context, id string) (*catalog.Asset, error) {
	return s.r().Get(ctx, id)
}

func (s assets) GetMany(ctx context.Context, ids []string) ([]catalog.Asset, error) {
	return s.r().GetMany(ctx, ids)
}

func (s assets) Existing(ctx context.Context, ids []string) ([]string, error) {
	return s.r().Existing(ctx, ids)
}

func (s assets) FindByChecksum(ctx context.Context, libraryID string, sum []byte) (*catalog.Asset, error) {
	return s.r().FindByChecksum(ctx, libraryID, sum)
}

func (s assets) IDsByChecksum(ctx context.Context, libraryID string, sums [][]byte) (map[string]string, error) {
	return s.r().IDsByChecksum(ctx, libraryID, sums)
}

func (s assets) FindBySHA1(ctx context.Context, libraryID string, sums [][]byte) ([]catalog.Asset, error) {
	return s.r().FindBySHA1(ctx, libraryID, sums)
}

func (s assets) Seq(ctx context.Context, id string) (int64, error) { return s.r().Seq(ctx, id) }

func (s assets) IDBySeq(ctx context.Context, seq int64) (string, error) {
	return s.r().IDBySeq(ctx, seq)
}

func (s assets) Update(ctx context.Context, a *catalog.Asset) error { return s.r().Update(ctx, a) }

func (s assets) SetTrashed(ctx context.Context, ids []string, at *time.Time, now time.Time) error {
	return s.r().SetTrashed(ctx, ids, at, now)
}

func (s assets) Delete(ctx context.Context, ids []string) error { return s.r().Delete(ctx, ids) }

func (s assets) List(ctx context.Context, f query.AssetFilter, p query.Page) ([]catalog.Asset, bool, error) {
	return s.r().List(ctx, f, p)
}

func (s assets) TrashedBefore(ctx context.Context, t time.Time, limit int) ([]string, error) {
	return s.r().TrashedBefore(ctx, t, limit)
}

func ptrTo[T any](v T) *T { return &v }
