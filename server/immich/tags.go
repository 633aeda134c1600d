package immich

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// maxTagValue bounds a tag's value (bytes).
const maxTagValue = 1000

// ToTag converts a tag.
func ToTag(t *catalog.Tag) Tag {
	return Tag{ID: t.ID, Name: t.Name(), Value: t.Value, CreatedAt: Time(t.CreatedAt), UpdatedAt: Time(t.UpdatedAt)}
}

// ToTags converts a list of tags.
func ToTags(list []catalog.Tag) []Tag {
	out := make([]Tag, len(list))
	for i := range list {
		out[i] = ToTag(&list[i])
	}
	return out
}

// Tags lists the tags of the layer's library, by value.
func (s *Service) Tags(ctx context.Context, p *catalog.Principal) ([]catalog.Tag, error) {
	m, err := s.Library(ctx, p)
	if err != nil {
		return nil, err
	}
	return s.store.Read().Tags().List(ctx, m.Library.ID)
}

// UpsertTags returns the tag of each value in the layer's library, creating
// the missing ones (Immich's PUT /api/tags). Values are trimmed of spaces
// and slashes; one that is then empty is a validation error. Tagging needs
// the collaborator or owner role.
func (s *Service) UpsertTags(ctx context.Context, p *catalog.Principal, values []string) ([]catalog.Tag, error) {
	clean := make([]string, len(values))
	for i, v := range values {
		clean[i] = strings.Trim(strings.TrimSpace(v), "/")
		if clean[i] == "" || len(clean[i]) > maxTagValue || !utf8.ValidString(clean[i]) {
			return nil, catalog.InvalidField("value_error", fmt.Sprintf("a tag is 1 to %d bytes of UTF-8", maxTagValue),
				v, "body", "tags", i)
		}
	}
	m, err := s.writable(ctx, p, "tagging")
	if err != nil {
		return nil, err
	}
	out := make([]catalog.Tag, len(clean))
	err = s.store.InLibraryTx(ctx, m.Library.ID, func(r store.Repos) error {
		now := s.now().UTC()
		for i, v := range clean {
			t, err := r.Tags().Upsert(ctx, &catalog.Tag{ID: catalog.NewID(catalog.PrefixTag, now), LibraryID: m.Library.ID,
				Value: v, CreatedAt: now, UpdatedAt: now})
			if err != nil {
				return err
			}
			out[i] = *t
		}
		return nil
	})
	return out, err
}

// TagAssets links assets to a tag of the layer's library and answers per
// id, as Immich does: an asset already tagged (or named twice) is a
// duplicate, one that is not a live asset of the library not_found.
func (s *Service) TagAssets(ctx context.Context, p *catalog.Principal, tagID string, ids []string) ([]BulkIDResult, error) {
	m, err := s.writable(ctx, p, "tagging")
	if err != nil {
		return nil, err
	}
	t, err := s.store.Read().Tags().Get(ctx, tagID)
	if err == nil && t.LibraryID != m.Library.ID {
		err = fmt.Errorf("tag %s is not in the library of the Immich layer: %w", tagID, catalog.ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	live, err := s.liveAssets(ctx, m, ids)
	if err != nil {
		return nil, err
	}
	out := make([]BulkIDResult, len(ids))
	var linkable []string
	for i, id := range ids {
		out[i].ID = id
		if !live[id] {
			out[i].Error = reason(ReasonNotFound)
			continue
		}
		linkable = append(linkable, id)
	}
	var linked []string
	err = s.store.InLibraryTx(ctx, m.Library.ID, func(r store.Repos) error {
		linked, err = r.Tags().Link(ctx, t.ID, linkable, s.now().UTC())
		return err
	})
	if err != nil {
		return nil, err
	}
	fresh := make(map[string]bool, len(linked))
	for _, id := range linked {
		fresh[id] = true
	}
	for i := range out {
		switch {
		case out[i].Error != nil:
		case fresh[out[i].ID]:
			out[i].Success = true
			delete(fresh, out[i].ID) // a second mention is a duplicate
		default:
			out[i].Error = reason(ReasonDuplicate)
		}
	}
	return out, nil
}

// AssetTags lists the tags of an asset, by value.
func (s *Service) AssetTags(ctx context.Context, assetID string) ([]catalog.Tag, error) {
	return s.store.Read().Tags().ForAsset(ctx, assetID)
}

// writable returns the caller's membership of the layer's library when
// their role may change it (what names the operation in the 403): Immich
// checks the permission before it answers duplicates.
func (s *Service) writable(ctx context.Context, p *catalog.Principal, what string) (*catalog.Membership, error) {
	m, err := s.Library(ctx, p)
	if err != nil {
		return nil, err
	}
	return m, m.RequireWrite(what)
}

// liveAssets tells, for each id, whether it is a live asset of m's library.
func (s *Service) liveAssets(ctx context.Context, m *catalog.Membership, ids []string) (map[string]bool, error) {
	live := make(map[string]bool, len(ids))
	for start := 0; start < len(ids); start += catalog.MaxIDs {
		found, err := s.store.Read().Assets().GetMany(ctx, ids[start:min(start+catalog.MaxIDs, len(ids))])
		if err != nil {
			return nil, err
		}
		for _, a := range found {
			live[a.ID] = a.LibraryID == m.Library.ID && a.TrashedAt == nil
		}
	}
	return live, nil
}
