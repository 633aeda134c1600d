package sqlite

import (
	"context"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
)

// assets is the asset list over one querier, as the tests build it: the
// repository itself is sqlstore's (issue 34), over that querier through
// newRepos, so a recorder there sees the statements it runs.
type assets struct{ q querier }

func (s assets) List(ctx context.Context, f query.AssetFilter, p query.Page) ([]catalog.Asset, bool, error) {
	return newRepos(s.q).Assets().List(ctx, f, p)
}
