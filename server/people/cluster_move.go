package people

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// move gives faces, all with person from (nil: with nobody), to person to
// as the machine's decision, keeps both centroids exact, and writes a
// face.updated event per face moved. It returns the faces it moved: those
// still the machine's to place and still with from (store.Clustering.Place).
func move(ctx context.Context, r store.Repos, libraryID string, from *string, to string, faces []vface,
	now time.Time) ([]vface, error) {
	toSum, toN, err := centroidBefore(ctx, r, to)
	if err != nil {
		return nil, err
	}
	var fromSum []float32
	var fromN int
	if from != nil {
		if fromSum, fromN, err = centroidBefore(ctx, r, *from); err != nil {
			return nil, err
		}
	}
	ids := make([]string, len(faces))
	for i, f := range faces {
		ids[i] = f.ID
	}
	placed, err := r.Clustering().Place(ctx, ids, from, to, now)
	if err != nil || len(placed) == 0 {
		return nil, err
	}
	moved := make([]vface, 0, len(placed))
	for _, f := range faces {
		if slices.Contains(placed, f.ID) {
			moved = append(moved, f)
		}
	}
	if err := shift(ctx, r, libraryID, to, toSum, toN, moved, 1); err != nil {
		return nil, err
	}
	if from != nil {
		if err := shift(ctx, r, libraryID, *from, fromSum, fromN, moved, -1); err != nil {
			return nil, err
		}
	}
	err = appendEvents(ctx, r, "face.updated", libraryID, placed, func(string) any {
		return map[string]any{"person_id": to, "previous_person_id": from}
	}, now)
	return moved, err
}

// shift stores a person's centroid after faces joined (sign 1) or left
// (-1): sum and n as they were before, or sum nil to sum it anew.
func shift(ctx context.Context, r store.Repos, libraryID, personID string, sum []float32, n int, moved []vface,
	sign int) error {
	if sum == nil {
		return resum(ctx, r, libraryID, personID)
	}
	for _, f := range moved {
		addVec(sum, f.vec, float32(sign))
	}
	n += sign * len(moved)
	_, err := r.Clustering().PutCentroid(ctx, store.Centroid{PersonID: personID, LibraryID: libraryID,
		Sum: encodeVec(sum), N: n})
	return err
}

// newCluster starts an unverified machine cluster (verified at once when
// one face is the minimum).
func (c *Clusterer) newCluster(ctx context.Context, r store.Repos, libraryID string, now time.Time) (string, error) {
	pe := &catalog.Person{ID: catalog.NewID(catalog.PrefixPerson, now), LibraryID: libraryID,
		Verified: c.cfg.MinFaces <= 1, CreatedAt: now, UpdatedAt: now}
	if err := r.Clustering().CreateCluster(ctx, pe); err != nil {
		return "", err
	}
	return pe.ID, appendEvent(ctx, r, "person.created", libraryID, pe.ID,
		map[string]any{"name": "", "source": "machine"}, now)
}

// settlement is what changed for the people a clustering transaction
// touched: the best face each gained, and those that lost faces.
type settlement struct {
	gained  map[string]vface
	lost    []string
	created []string
}

func newSettlement() *settlement { return &settlement{gained: map[string]vface{}} }

// gain notes faces that joined a person.
func (s *settlement) gain(personID string, faces []vface) {
	for _, f := range faces {
		if b, ok := s.gained[personID]; !ok || f.Score > b.Score {
			s.gained[personID] = f
		}
	}
}

// settle brings the touched people up to date: a machine cluster is
// verified while it has the minimum of faces; the featured face is the
// best one unless a user chose it; and each person that already existed
// gets a person.updated event naming what changed.
func (c *Clusterer) settle(ctx context.Context, r store.Repos, libraryID string, s *settlement, now time.Time) error {
	touched := make([]string, 0, len(s.gained)+len(s.lost))
	for id := range s.gained {
		touched = append(touched, id)
	}
	touched = append(touched, s.lost...)
	slices.Sort(touched)
	for _, id := range slices.Compact(touched) {
		pe, err := r.People().Get(ctx, id)
		if errors.Is(err, catalog.ErrNotFound) {
			continue
		} else if err != nil {
			return err
		}
		if _, err := r.Clustering().SetMachineVerified(ctx, id, pe.FaceCount >= c.cfg.MinFaces); err != nil {
			return err
		}
		var featured bool
		if slices.Contains(s.lost, id) {
			featured, err = r.Clustering().FeatureBest(ctx, id)
		} else {
			best := s.gained[id]
			featured, err = r.Clustering().FeatureIfBetter(ctx, id, best.ID, best.Score)
		}
		if err != nil {
			return err
		}
		if slices.Contains(s.created, id) {
			continue
		}
		fields := []string{"faces"}
		if featured {
			fields = append(fields, "thumbnail_face_id")
		}
		if err := appendEvent(ctx, r, "person.updated", libraryID, id, map[string]any{"fields": fields}, now); err != nil {
			return err
		}
	}
	return nil
}
