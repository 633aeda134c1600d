package people

import (
	"context"
	"errors"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// Merge moves every face of the people ids to the person id and deletes
// them; id keeps its own name and fields. All of them must be people of
// id's library (else a 422 at their position, nothing written). Events:
// face.updated for each moved face, person.deleted (data merged_into) for
// each merged person, person.updated for id.
func (s *Service) Merge(ctx context.Context, p *catalog.Principal, id string, ids []string) (*catalog.Person, error) {
	ids, err := checkIDs(ids, catalog.PrefixPerson, false, "body", "ids")
	if err != nil {
		return nil, err
	}
	var out *catalog.Person
	err = s.inPersonTx(ctx, id, func(r store.Repos) error {
		target, err := s.person(ctx, r, p, id, true)
		if err != nil {
			return err
		}
		for i, other := range ids {
			if other == id {
				return catalog.InvalidField("value_error", "a person cannot be merged into itself", other, "body", "ids", i)
			}
			o, err := r.People().Get(ctx, other)
			if errors.Is(err, catalog.ErrNotFound) || err == nil && o.LibraryID != target.LibraryID {
				return catalog.InvalidField("value_error", "no person with this id in the library of "+id, other,
					"body", "ids", i)
			}
			if err != nil {
				return err
			}
		}
		now := s.now().UTC()
		moved, err := r.Faces().MoveAll(ctx, ids, id, now)
		if err != nil {
			return err
		}
		for _, faceID := range moved {
			if err := appendEvent(ctx, r, "face.updated", target.LibraryID, faceID,
				map[string]any{"person_id": id}, now); err != nil {
				return err
			}
		}
		if err := r.People().Delete(ctx, ids); err != nil {
			return err
		}
		for _, other := range ids {
			if err := appendEvent(ctx, r, "person.deleted", target.LibraryID, other,
				map[string]any{"merged_into": id}, now); err != nil {
				return err
			}
		}
		if out, err = s.verified(ctx, r, id); err != nil {
			return err
		}
		return facesChanged(ctx, r, target.LibraryID, []*string{&id}, now)
	})
	return out, err
}

// Reassign gives the faces faceIDs to the person id. Each must be a face
// of id's library (else a 422 at its position, nothing written); faces
// already id's are left alone. Events: face.updated for each moved face,
// person.updated for id and for each person a face left.
func (s *Service) Reassign(ctx context.Context, p *catalog.Principal, id string, faceIDs []string) (*catalog.Person, error) {
	faceIDs, err := checkIDs(faceIDs, catalog.PrefixFace, false, "body", "face_ids")
	if err != nil {
		return nil, err
	}
	var out *catalog.Person
	err = s.inPersonTx(ctx, id, func(r store.Repos) error {
		target, err := s.person(ctx, r, p, id, true)
		if err != nil {
			return err
		}
		list, err := r.Faces().GetMany(ctx, faceIDs)
		if err != nil {
			return err
		}
		byID := make(map[string]*catalog.Face, len(list))
		for i := range list {
			byID[list[i].ID] = &list[i]
		}
		var move []string
		touched := []*string{&id}
		for i, faceID := range faceIDs {
			f, ok := byID[faceID]
			if !ok || f.LibraryID != target.LibraryID {
				return catalog.InvalidField("value_error", "no face with this id in the library of "+id, faceID,
					"body", "face_ids", i)
			}
			if f.PersonID == nil || *f.PersonID != id {
				move, touched = append(move, faceID), append(touched, f.PersonID)
			}
		}
		now := s.now().UTC()
		if err := r.Faces().Assign(ctx, move, &id, now); err != nil {
			return err
		}
		for _, faceID := range move {
			if err := appendEvent(ctx, r, "face.updated", target.LibraryID, faceID, map[string]any{"person_id": id,
				"previous_person_id": byID[faceID].PersonID}, now); err != nil {
				return err
			}
		}
		if out, err = s.verified(ctx, r, id); err != nil {
			return err
		}
		if len(move) == 0 {
			return nil
		}
		return facesChanged(ctx, r, target.LibraryID, touched, now)
	})
	return out, err
}

// verified marks a person a user acted on as verified (not a visible
// field: updated_at stays) and as no longer a machine cluster (the
// clustering never undoes what a user did to it), and returns it as it
// now is.
func (s *Service) verified(ctx context.Context, r store.Repos, id string) (*catalog.Person, error) {
	if err := r.Clustering().Confirm(ctx, id); err != nil {
		return nil, err
	}
	pe, err := r.People().Get(ctx, id)
	if err != nil || pe.Verified {
		return pe, err
	}
	pe.Verified = true
	if err := r.People().Update(ctx, pe); err != nil {
		return nil, err
	}
	return pe, nil
}
