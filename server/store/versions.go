package store

import (
	"context"
	"time"

	"github.com/photoctl/photoctl/server/query"
)

// AssetVersion is a stored edited rendering of an asset. The original is
// never one: it is the asset's own file.
type AssetVersion struct {
	ID            string
	AssetID       string
	ContributorID string // who supplied the current bytes
	MIMEType      string
	FileName      string // the name a download of it carries
	Size          int64
	Checksum      []byte // SHA-256 of the bytes
	// Revision counts replacements of the bytes; it is part of the file's
	// blob key, so a replacement never overwrites a committed file.
	Revision  int
	CreatedAt time.Time
	UpdatedAt time.Time
}

// AssetVersions stores the versions of assets. Every method is scoped by
// the asset id it is given; callers check access to the asset first. A
// version of another asset is ErrNotFound, like a missing one. Rows go
// when their asset's row is deleted.
type AssetVersions interface {
	// Create inserts v; an existing id is ErrConflict.
	Create(ctx context.Context, v *AssetVersion) error
	Get(ctx context.Context, assetID, id string) (*AssetVersion, error)
	// List pages an asset's versions newest first (by id). A cursor that is
	// not a version of the asset is a validation error (422).
	List(ctx context.Context, assetID string, p query.Page) ([]AssetVersion, bool, error)
	// All returns every version of an asset, oldest first.
	All(ctx context.Context, assetID string) ([]AssetVersion, error)
	// Previous returns the newest version of the asset older than the one
	// with id beforeID (which need not exist any more), or ErrNotFound.
	Previous(ctx context.Context, assetID, beforeID string) (*AssetVersion, error)
	// Update writes the mutable fields of v: contributor, MIME type, file
	// name, size, checksum, revision and updated_at.
	Update(ctx context.Context, v *AssetVersion) error
	// Delete removes one version; a missing one is ErrNotFound.
	Delete(ctx context.Context, assetID, id string) error
}
