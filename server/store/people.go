package store

import (
	"context"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
)

// People stores people. FaceCount, AssetCount, ThumbnailAsset and the
// featured face's upkeep are the store's: it keeps them true as faces come,
// move and go, and as assets are trashed, restored and deleted.
type People interface {
	// Create inserts p. A name already used in the library (under
	// catalog.NameKey) is ErrConflict.
	Create(ctx context.Context, p *catalog.Person) error
	Get(ctx context.Context, id string) (*catalog.Person, error)
	// GetMany returns the people with these ids that exist, in any order.
	GetMany(ctx context.Context, ids []string) ([]catalog.Person, error)
	// FindByName returns the library's person whose name has this key.
	FindByName(ctx context.Context, libraryID, nameKey string) (*catalog.Person, error)
	// Update writes the name, birth date, flags, featured face, verified
	// and updated_at of p. A name already used in the library is
	// ErrConflict.
	Update(ctx context.Context, p *catalog.Person) error
	// Delete removes people. Faces still assigned to them become
	// unassigned.
	Delete(ctx context.Context, ids []string) error
	// List pages the people matching f, newest (highest id) first.
	List(ctx context.Context, f query.PersonFilter, p query.Page) ([]catalog.Person, bool, error)
	// ForAssets returns, per asset id, the people with at least one face in
	// that asset, each once, oldest first.
	ForAssets(ctx context.Context, assetIDs []string) (map[string][]catalog.Person, error)
}

// Faces stores faces. A face never moves to another asset; deleting an
// asset deletes its faces.
type Faces interface {
	Create(ctx context.Context, f *catalog.Face) error
	Get(ctx context.Context, id string) (*catalog.Face, error)
	// GetMany returns the faces with these ids that exist, in any order.
	GetMany(ctx context.Context, ids []string) ([]catalog.Face, error)
	// List pages the faces matching f, newest (highest id) first.
	List(ctx context.Context, f query.FaceFilter, p query.Page) ([]catalog.Face, bool, error)
	// ForAssets returns every face of these assets, oldest first.
	ForAssets(ctx context.Context, assetIDs []string) ([]catalog.Face, error)
	// Assign gives the faces with these ids to a person (nil unassigns)
	// and sets their updated_at. It is a user's decision: the clustering
	// never moves those faces again (Clustering.Place is the machine's).
	Assign(ctx context.Context, ids []string, personID *string, now time.Time) error
	// MoveAll gives every face of the people from to person to and returns
	// the ids of the faces it moved; a user's decision like Assign.
	MoveAll(ctx context.Context, from []string, to string, now time.Time) ([]string, error)
	// Delete removes the faces with these ids.
	Delete(ctx context.Context, ids []string) error

	// Replaceable returns the asset's machine faces that no user decision
	// holds, oldest first: not placed by a user, and with no person or a
	// machine cluster (not a person a user made or acted on). The faces
	// step replaces these when it runs again; the others stay.
	Replaceable(ctx context.Context, assetID string) ([]catalog.Face, error)
}
