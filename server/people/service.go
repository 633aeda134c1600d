// Package people holds the use cases of people and faces: named creates,
// edits, merges and reassignments of people; manual faces and their
// removal; face thumbnails; and the faces and people shown on assets.
// Access is checked here against the caller's role in the library: any
// member reads, collaborators and owners write.
package people

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/photoctl/photoctl/server/blob"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/libraries"
	"github.com/photoctl/photoctl/server/store"
)

// Previews opens an asset's rendering for a caller who may see the asset
// (assets.Service does): the asset, the open file and its MIME type; a
// rendering not made yet is ErrNotFound.
type Previews interface {
	OpenVariant(ctx context.Context, p *catalog.Principal, assetID, name string) (*catalog.Asset, blob.File, string, error)
}

// Cropper cuts a region, given as fractions of the image (top-left corner
// and size), out of an encoded image and returns the encoded crop and its
// MIME type.
type Cropper func(img []byte, x, y, width, height float64) ([]byte, string, error)

// Service implements the people and face use cases.
type Service struct {
	store    store.Store
	libs     *libraries.Service
	previews Previews
	crop     Cropper
	now      func() time.Time
}

// NewService returns a people service.
func NewService(st store.Store, libs *libraries.Service, previews Previews, crop Cropper, now func() time.Time) *Service {
	return &Service{store: st, libs: libs, previews: previews, crop: crop, now: now}
}

// reach returns the caller's membership of a library, requiring the
// collaborator or owner role when write is set. A library the caller does
// not belong to reads as not found (what names the resource).
func (s *Service) reach(ctx context.Context, r store.Repos, p *catalog.Principal, libraryID, what string,
	write bool) (*catalog.Membership, error) {
	m, err := s.libs.ReachResource(ctx, r, p, libraryID, what)
	if err != nil {
		return nil, err
	}
	if write {
		if err := m.RequireWrite("changing people and faces"); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// person reads a person the caller may read (or, with write, change).
func (s *Service) person(ctx context.Context, r store.Repos, p *catalog.Principal, id string, write bool) (*catalog.Person, error) {
	pe, err := r.People().Get(ctx, id)
	if err != nil {
		return nil, err
	}
	if _, err := s.reach(ctx, r, p, pe.LibraryID, "person "+id, write); err != nil {
		return nil, err
	}
	return pe, nil
}

// inPersonTx runs fn in a write transaction of person id's library,
// beside the other libraries' writes: a person, its faces and their assets
// are all of its library. A person that cannot be read leaves fn to meet
// the error in InTx, as before.
func (s *Service) inPersonTx(ctx context.Context, id string, fn func(store.Repos) error) error {
	lib := ""
	if pe, err := s.store.Read().People().Get(ctx, id); err == nil {
		lib = pe.LibraryID
	}
	return s.store.InLibraryTx(ctx, lib, fn)
}

// face reads a face the caller may read (or, with write, change).
func (s *Service) face(ctx context.Context, r store.Repos, p *catalog.Principal, id string, write bool) (*catalog.Face, error) {
	f, err := r.Faces().Get(ctx, id)
	if err != nil {
		return nil, err
	}
	if _, err := s.reach(ctx, r, p, f.LibraryID, "face "+id, write); err != nil {
		return nil, err
	}
	return f, nil
}

// checkIDs validates an id list of a body or query: 1 to 100 ids (none
// allowed when optional) of the given kind. It returns them without
// repeats, in order.
func checkIDs(ids []string, prefix string, optional bool, loc ...any) ([]string, error) {
	if len(ids) == 0 && !optional {
		return nil, catalog.InvalidField("too_short", "at least 1 id is required", ids, loc...)
	}
	if len(ids) > catalog.MaxIDs {
		return nil, &catalog.ValidationError{Fields: []catalog.FieldError{{Loc: loc,
			Msg: fmt.Sprintf("at most %d ids are allowed", catalog.MaxIDs), Type: "too_long",
			Ctx: map[string]any{"max_length": catalog.MaxIDs}}}}
	}
	out := make([]string, 0, len(ids))
	for i, id := range ids {
		if !catalog.HasPrefix(id, prefix) {
			at := append(append([]any(nil), loc...), i)
			return nil, catalog.InvalidField("value_error", "not an id with prefix "+prefix, id, at...)
		}
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out, nil
}

// appendEvent writes a change event inside the caller's transaction.
func appendEvent(ctx context.Context, r store.Repos, typ, libraryID, resourceID string, data any, now time.Time) error {
	body, err := json.Marshal(data)
	if err != nil {
		return err
	}
	return r.Events().Append(ctx, &catalog.Event{ID: catalog.NewID(catalog.PrefixEvent, now), Type: typ,
		LibraryID: libraryID, ResourceID: resourceID, Data: body, CreatedAt: now})
}

// facesChanged tells the feed that the faces of these people changed (and
// with them, maybe, their asset_count and featured face): one
// person.updated event each, with fields ["faces"]. Nil and repeated ids
// are skipped, and so are people that no longer exist.
func facesChanged(ctx context.Context, r store.Repos, libraryID string, personIDs []*string, now time.Time) error {
	var seen []string
	for _, id := range personIDs {
		if id == nil || slices.Contains(seen, *id) {
			continue
		}
		seen = append(seen, *id)
		if _, err := r.People().Get(ctx, *id); errors.Is(err, catalog.ErrNotFound) {
			continue
		} else if err != nil {
			return err
		}
		if err := appendEvent(ctx, r, "person.updated", libraryID, *id,
			map[string]any{"fields": []string{"faces"}}, now); err != nil {
			return err
		}
	}
	return nil
}
