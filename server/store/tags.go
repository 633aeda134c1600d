package store

import (
	"context"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
)

// Tags stores the tags of libraries and the links between tags and assets.
// A link goes with its tag or its asset (cascade); a tag goes with its
// library.
type Tags interface {
	// Upsert stores t unless its library already has a tag of the same
	// value (compared exactly), and returns the stored tag either way: it
	// is idempotent.
	Upsert(ctx context.Context, t *catalog.Tag) (*catalog.Tag, error)
	// Get returns one tag, or ErrNotFound.
	Get(ctx context.Context, id string) (*catalog.Tag, error)
	// List returns every tag of a library, by value.
	List(ctx context.Context, libraryID string) ([]catalog.Tag, error)
	// Link links assets to a tag and returns the ids it linked, in the
	// order given; an asset already linked (or named twice) is skipped, so
	// Link is idempotent. The caller checks that the assets exist and
	// belong to the tag's library.
	Link(ctx context.Context, tagID string, assetIDs []string, at time.Time) ([]string, error)
	// ForAsset returns the tags of an asset, by value.
	ForAsset(ctx context.Context, assetID string) ([]catalog.Tag, error)
}
