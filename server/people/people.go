package people

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// CreateInput is a named create of a person. Optional fields left nil are
// not compared with an existing person of that name.
type CreateInput struct {
	LibraryID  string
	Name       string
	BirthDate  *string
	IsHidden   *bool
	IsFavorite *bool
}

// Create applies the named-create rule in the selected library: a person
// with the same name (case-insensitively) is returned as it is (created
// false) unless a supplied field differs from it, which is a conflict; a
// blank name is a 422.
func (s *Service) Create(ctx context.Context, p *catalog.Principal, in CreateInput) (*catalog.Person, bool, error) {
	name, err := catalog.CleanName(in.Name, "body", "name")
	if err != nil {
		return nil, false, err
	}
	now := s.now().UTC()
	if in.BirthDate != nil {
		d, err := catalog.CleanBirthDate(*in.BirthDate, now, "body", "birth_date")
		if err != nil {
			return nil, false, err
		}
		in.BirthDate = &d
	}
	m, err := s.libs.Select(ctx, p, in.LibraryID, "body", "library_id")
	if err != nil {
		return nil, false, err
	}
	var out *catalog.Person
	var created bool
	err = s.store.InLibraryTx(ctx, m.Library.ID, func(r store.Repos) error {
		if _, err := s.reach(ctx, r, p, m.Library.ID, "library "+m.Library.ID, true); err != nil {
			return err
		}
		out, created, err = catalog.NamedCreate(
			func() (*catalog.Person, error) {
				return r.People().FindByName(ctx, m.Library.ID, catalog.NameKey(name))
			},
			func(e *catalog.Person) error { return createConflicts(e, in) },
			func() (*catalog.Person, error) {
				pe := &catalog.Person{ID: catalog.NewID(catalog.PrefixPerson, now), LibraryID: m.Library.ID,
					Name: name, BirthDate: in.BirthDate, IsHidden: in.IsHidden != nil && *in.IsHidden,
					IsFavorite: in.IsFavorite != nil && *in.IsFavorite, Verified: true, CreatedAt: now, UpdatedAt: now}
				if err := r.People().Create(ctx, pe); err != nil {
					return nil, err
				}
				return pe, appendEvent(ctx, r, "person.created", pe.LibraryID, pe.ID, map[string]any{"name": name}, now)
			},
		)
		return err
	})
	if err != nil {
		return nil, false, err
	}
	return out, created, nil
}

// createConflicts reports the first supplied field that differs from the
// existing person of the same name.
func createConflicts(e *catalog.Person, in CreateInput) error {
	var field string
	switch {
	case in.BirthDate != nil && (e.BirthDate == nil || *e.BirthDate != *in.BirthDate):
		field = "birth_date"
	case in.IsHidden != nil && *in.IsHidden != e.IsHidden:
		field = "is_hidden"
	case in.IsFavorite != nil && *in.IsFavorite != e.IsFavorite:
		field = "is_favorite"
	default:
		return nil
	}
	return fmt.Errorf("a person named %q already exists (%s) with a different %s: %w", e.Name, e.ID, field,
		catalog.ErrConflict)
}

// Get reads one person the caller can see.
func (s *Service) Get(ctx context.Context, p *catalog.Principal, id string) (*catalog.Person, error) {
	return s.person(ctx, s.store.Read(), p, id, false)
}

// ListInput is a people list request: the library (selection rule) and the
// store filter without it.
type ListInput struct {
	LibraryID string
	Filter    query.PersonFilter
}

// List pages the people of the selected library, newest first.
func (s *Service) List(ctx context.Context, p *catalog.Principal, in ListInput, pg query.Page) ([]catalog.Person, bool, error) {
	f := in.Filter
	var err error
	if f.LibraryID, f.IDs, err = s.listScope(ctx, p, in.LibraryID, f.IDs, catalog.PrefixPerson); err != nil {
		return nil, false, err
	}
	return s.store.Read().People().List(ctx, f, pg)
}

// listScope checks a list's ids filter (ids of prefix) and selects its
// library (selection rule), returning the library id and the checked ids.
func (s *Service) listScope(ctx context.Context, p *catalog.Principal, libraryID string, ids []string, prefix string) (string, []string, error) {
	ids, err := checkIDs(ids, prefix, true, "query", "ids")
	if err != nil {
		return "", nil, err
	}
	m, err := s.libs.Select(ctx, p, libraryID, "query", "library_id")
	if err != nil {
		return "", nil, err
	}
	return m.Library.ID, ids, nil
}

// Update is a partial edit of a person: unset fields stay. Name and
// BirthDate may be cleared (Value nil); the flags and the featured face
// may not.
type Update struct {
	Name            catalog.Patch[string]
	BirthDate       catalog.Patch[string]
	IsHidden        catalog.Patch[bool]
	IsFavorite      catalog.Patch[bool]
	ThumbnailFaceID catalog.Patch[string]
}

// validate checks an update's values before any read.
func (u *Update) validate(now func() time.Time) error {
	if u.Name.Set && u.Name.Value != nil {
		n, err := catalog.CleanName(*u.Name.Value, "body", "name")
		if err != nil {
			return err
		}
		u.Name.Value = &n
	}
	if u.BirthDate.Set && u.BirthDate.Value != nil {
		d, err := catalog.CleanBirthDate(*u.BirthDate.Value, now(), "body", "birth_date")
		if err != nil {
			return err
		}
		u.BirthDate.Value = &d
	}
	for _, f := range []struct {
		name string
		set  bool
		null bool
	}{{"is_hidden", u.IsHidden.Set, u.IsHidden.Value == nil}, {"is_favorite", u.IsFavorite.Set, u.IsFavorite.Value == nil},
		{"thumbnail_face_id", u.ThumbnailFaceID.Set, u.ThumbnailFaceID.Value == nil}} {
		if f.set && f.null {
			return catalog.InvalidField("value_error", f.name+" cannot be null", nil, "body", f.name)
		}
	}
	return nil
}

// Patch edits a person. Renaming to a name another person of the library
// has is a conflict; the featured face must be one of the person's faces.
// An edit marks the person verified (a user confirmed it).
func (s *Service) Patch(ctx context.Context, p *catalog.Principal, id string, u Update) (*catalog.Person, error) {
	if err := u.validate(s.now); err != nil {
		return nil, err
	}
	var out *catalog.Person
	err := s.inPersonTx(ctx, id, func(r store.Repos) error {
		pe, err := s.person(ctx, r, p, id, true)
		if err != nil {
			return err
		}
		changed, err := s.apply(ctx, r, pe, u)
		if err != nil || len(changed) == 0 {
			out = pe
			return err
		}
		now := s.now().UTC()
		pe.Verified, pe.UpdatedAt = true, now
		if err := r.People().Update(ctx, pe); err != nil {
			if errors.Is(err, catalog.ErrConflict) {
				return fmt.Errorf("another person in this library is named %q: %w", pe.Name, catalog.ErrConflict)
			}
			return err
		}
		if err := userDecided(ctx, r, pe, changed); err != nil {
			return err
		}
		if err := appendEvent(ctx, r, "person.updated", pe.LibraryID, pe.ID, map[string]any{"fields": changed}, now); err != nil {
			return err
		}
		out, err = r.People().Get(ctx, id)
		return err
	})
	return out, err
}

// userDecided records an edit as a user's decision for the clustering: the
// person is no longer a machine cluster, and a featured face chosen here
// stays featured.
func userDecided(ctx context.Context, r store.Repos, pe *catalog.Person, changed []string) error {
	if err := r.Clustering().Confirm(ctx, pe.ID); err != nil {
		return err
	}
	if slices.Contains(changed, "thumbnail_face_id") {
		return r.Clustering().ChooseThumbnail(ctx, pe.ID, *pe.ThumbnailFaceID)
	}
	return nil
}

// apply sets the fields of u on pe and returns the names of those that
// changed.
func (s *Service) apply(ctx context.Context, r store.Repos, pe *catalog.Person, u Update) ([]string, error) {
	var changed []string
	if u.Name.Set {
		name := ""
		if u.Name.Value != nil {
			name = *u.Name.Value
		}
		if name != pe.Name {
			pe.Name, changed = name, append(changed, "name")
		}
	}
	if u.BirthDate.Set && !equal(u.BirthDate.Value, pe.BirthDate) {
		pe.BirthDate, changed = u.BirthDate.Value, append(changed, "birth_date")
	}
	if u.IsHidden.Set && *u.IsHidden.Value != pe.IsHidden {
		pe.IsHidden, changed = *u.IsHidden.Value, append(changed, "is_hidden")
	}
	if u.IsFavorite.Set && *u.IsFavorite.Value != pe.IsFavorite {
		pe.IsFavorite, changed = *u.IsFavorite.Value, append(changed, "is_favorite")
	}
	if u.ThumbnailFaceID.Set && !equal(u.ThumbnailFaceID.Value, pe.ThumbnailFaceID) {
		faceID := *u.ThumbnailFaceID.Value
		f, err := r.Faces().Get(ctx, faceID)
		if errors.Is(err, catalog.ErrNotFound) || err == nil && (f.PersonID == nil || *f.PersonID != pe.ID) {
			return nil, catalog.InvalidField("value_error", "thumbnail_face_id must be one of this person's faces",
				faceID, "body", "thumbnail_face_id")
		}
		if err != nil {
			return nil, err
		}
		pe.ThumbnailFaceID, changed = &faceID, append(changed, "thumbnail_face_id")
	}
	return changed, nil
}

// equal compares optional values.
func equal[T comparable](a, b *T) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}
