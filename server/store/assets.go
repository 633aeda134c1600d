package store

import (
	"context"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
)

// Assets stores asset records. Every method is scoped by the ids it is
// given; callers check library access first.
type Assets interface {
	// Create inserts a; a second asset with the same checksum in the same
	// library is ErrConflict.
	Create(ctx context.Context, a *catalog.Asset) error
	Get(ctx context.Context, id string) (*catalog.Asset, error)
	// GetMany returns the assets with these ids that exist, in any order.
	GetMany(ctx context.Context, ids []string) ([]catalog.Asset, error)
	// Existing returns those of ids that name an asset (live or trashed),
	// in any order: one primary-key probe each, no row read.
	Existing(ctx context.Context, ids []string) ([]string, error)
	// FindByChecksum returns the library's asset with this SHA-256.
	FindByChecksum(ctx context.Context, libraryID string, sha256 []byte) (*catalog.Asset, error)
	// IDsByChecksum returns, for those of the SHA-256 sums the library
	// holds, the asset id under string(sum): one indexed query for a batch.
	IDsByChecksum(ctx context.Context, libraryID string, sums [][]byte) (map[string]string, error)
	// FindBySHA1 returns the library's assets, live or trashed, whose SHA-1
	// (the Immich checksum) is one of sums, through the library's SHA-1 index.
	FindBySHA1(ctx context.Context, libraryID string, sums [][]byte) ([]catalog.Asset, error)
	// Seq returns the asset's row number: a positive integer naming one
	// asset, for cursors that must be numbers (the Immich layer's pages).
	Seq(ctx context.Context, id string) (int64, error)
	// IDBySeq returns the id of the asset with row number seq.
	IDBySeq(ctx context.Context, seq int64) (string, error)
	// Update writes every mutable field of a and its derived filter columns.
	Update(ctx context.Context, a *catalog.Asset) error
	// SetTrashed sets trashed_at (nil restores) on the given assets.
	SetTrashed(ctx context.Context, ids []string, at *time.Time, now time.Time) error
	// Delete removes the rows (and their index entries) of the given assets.
	Delete(ctx context.Context, ids []string) error
	// List pages the assets matching f, ordered by capture time (wall
	// clock), then id.
	List(ctx context.Context, f query.AssetFilter, p query.Page) ([]catalog.Asset, bool, error)
	// TrashedBefore returns up to limit ids of assets trashed before t.
	TrashedBefore(ctx context.Context, t time.Time, limit int) ([]string, error)
}

// Storage accounts the bytes charged to each user (library owners).
type Storage interface {
	// Add changes a user's used bytes by delta (negative frees). In a
	// write transaction it keeps the user's figure from other transactions
	// until it ends (InLibraryTx ones of other libraries included), so a
	// Used after it counts every Add committed before and none that can
	// commit after: a check of the sum holds.
	Add(ctx context.Context, userID string, delta int64) error
	Used(ctx context.Context, userID string) (int64, error)
}

// BlobJournal records blob keys whose rows are gone and whose files must be
// removed; see the blob_journal table.
type BlobJournal interface {
	Add(ctx context.Context, keys []string, now time.Time) error
	List(ctx context.Context, limit int) ([]string, error)
	Remove(ctx context.Context, keys []string) error
}
