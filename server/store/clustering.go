package store

import (
	"context"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
)

// ClusterFace is a face with an embedding, as the clustering reads it.
type ClusterFace struct {
	ID, AssetID, LibraryID string
	PersonID               *string
	// ByUser is set when a user placed the face (assigned_by user): the
	// machine never moves it.
	ByUser bool
	Source catalog.FaceSource
	// Score ranks a person's faces for the featured one: the detector's
	// confidence (1 for a drawn face) times the box's area.
	Score float64
	// Embedding is the face's unit vector, float32 little-endian.
	Embedding []byte
}

// Centroid is the stored sum of the embeddings of a person's faces.
type Centroid struct {
	PersonID  string
	LibraryID string
	// Sum is N unit embeddings added up (float32 little-endian); nil
	// while N is 0.
	Sum []byte
	N   int
	// Stale is set when the person's faces changed other than through
	// PutCentroid: Sum is then out of date.
	Stale bool
	// Version is the library's generation of the row's last change.
	Version int64
}

// ClusterState is a library's clustering bookkeeping. Generation grows
// with every change of a centroid row, Epoch when one is deleted.
type ClusterState struct {
	Generation int64
	Epoch      int64
	// NewFaces counts faces clustered since the last re-cluster.
	NewFaces      int
	ReclusteredAt *time.Time
}

// ClusterPerson is a person as the re-cluster job sees it.
type ClusterPerson struct {
	ID string
	// Machine is set for a machine cluster no user acted on; only those
	// may be merged, split or deleted by the machine.
	Machine   bool
	FaceCount int
	Verified  bool
}

// Clustering is the people clustering's storage: centroids per person,
// the bookkeeping that lets processes refresh in-memory indexes, and the
// machine's own moves. A user's decisions are recorded here too (Confirm,
// ChooseThumbnail; Faces.Assign and MoveAll mark faces as the user's), and
// nothing here undoes them: Place moves only faces that are not the
// user's (the caller checks), FeatureIfBetter and FeatureBest keep a
// featured face the user chose.
type Clustering interface {
	// State returns the library's bookkeeping; zero for a library that
	// never had a centroid.
	State(ctx context.Context, libraryID string) (ClusterState, error)
	// Centroids returns the library's centroid rows whose version is above
	// since (0: every row).
	Centroids(ctx context.Context, libraryID string, since int64) ([]Centroid, error)
	// Centroid returns a person's centroid row; ErrNotFound when the
	// person never had a face with an embedding.
	Centroid(ctx context.Context, personID string) (*Centroid, error)
	// StaleCentroids returns the people of the library whose centroid is
	// stale.
	StaleCentroids(ctx context.Context, libraryID string) ([]string, error)
	// PutCentroid stores c's sum and count for its person (not stale)
	// under a new generation of its library, which it returns.
	PutCentroid(ctx context.Context, c Centroid) (int64, error)
	// PendingFaces returns the asset's machine faces with an embedding that
	// nobody has placed (no person, not taken away by a user).
	PendingFaces(ctx context.Context, assetID string) ([]ClusterFace, error)
	// PersonFaces returns the person's faces that have an embedding.
	PersonFaces(ctx context.Context, personID string) ([]ClusterFace, error)
	// MovableFaces returns the library's faces the re-cluster job may
	// move: those with an embedding of machine clusters, and the machine
	// faces nobody has placed.
	MovableFaces(ctx context.Context, libraryID string) ([]ClusterFace, error)
	// People returns every person of the library.
	People(ctx context.Context, libraryID string) ([]ClusterPerson, error)
	// CreateCluster inserts p as a machine cluster.
	CreateCluster(ctx context.Context, p *catalog.Person) error
	// Place moves the faces that are still the machine's to place and
	// still with from (nil: with nobody) to the person to, as the
	// machine's decision (assigned_by machine), and returns the ids of
	// those it moved. A face is the machine's to place unless a user
	// placed it, or it sits with a person that is not a machine cluster.
	Place(ctx context.Context, faceIDs []string, from *string, to string, now time.Time) ([]string, error)
	// DeleteEmpty deletes those of the people that are machine clusters
	// without faces and returns their ids.
	DeleteEmpty(ctx context.Context, personIDs []string) ([]string, error)
	// SetMachineVerified sets the verified flag of a machine cluster (a
	// user's person stays verified); it reports whether it changed.
	SetMachineVerified(ctx context.Context, personID string, verified bool) (bool, error)
	// FeatureIfBetter makes faceID (of score) the person's featured face
	// when it outscores the current one, unless a user chose the current
	// one; it reports whether it changed.
	FeatureIfBetter(ctx context.Context, personID, faceID string, score float64) (bool, error)
	// FeatureBest makes the person's best face featured unless a user
	// chose the current one; it reports whether it changed.
	FeatureBest(ctx context.Context, personID string) (bool, error)
	// Confirm records that a user acted on the person: it is no longer a
	// machine cluster.
	Confirm(ctx context.Context, personID string) error
	// ChooseThumbnail records faceID as the featured face a user chose.
	ChooseThumbnail(ctx context.Context, personID, faceID string) error
	// CountNewFaces adds n to the library's faces clustered since the last
	// re-cluster and returns the total.
	CountNewFaces(ctx context.Context, libraryID string, n int) (int, error)
	// Reclustered records a finished re-cluster at: NewFaces goes to 0.
	Reclustered(ctx context.Context, libraryID string, at time.Time) error
	// Schedule queues t (a library task) like Tasks.Enqueue, except that
	// a task of its kind already queued for its subject is moved forward
	// to t.RunAfter when it was due later.
	Schedule(ctx context.Context, t *catalog.Task) error
}
