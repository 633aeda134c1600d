package libraries

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// Trash moves a library the caller owns to the trash: its content is hidden
// from every member until it is restored. The owner's last live library
// cannot be trashed (409 last_live_library), so every account keeps one to
// upload into. Trashing a trashed library returns it unchanged.
func (s *Service) Trash(ctx context.Context, p *catalog.Principal, id string) (*catalog.Membership, error) {
	var m *catalog.Membership
	err := s.store.InTx(ctx, func(r store.Repos) error {
		var err error
		if m, err = s.ownedAnyState(ctx, r, p, id, "trash"); err != nil || m.Library.TrashedAt != nil {
			return err
		}
		n, err := r.Libraries().CountLiveOwned(ctx, p.User.ID)
		if err != nil {
			return err
		}
		if n <= 1 {
			return catalog.Coded(catalog.ErrConflict, catalog.CodeLastLiveLibrary,
				"this is your last live library; create another one before trashing it")
		}
		now := s.clock()
		m.Library.TrashedAt, m.Library.UpdatedAt = &now, now
		return s.saveLifecycle(ctx, r, &m.Library, "library.trashed", now)
	})
	return m, err
}

// Restore brings a trashed library the caller owns back, with its content.
// Restoring a live library returns it unchanged.
func (s *Service) Restore(ctx context.Context, p *catalog.Principal, id string) (*catalog.Membership, error) {
	var m *catalog.Membership
	err := s.store.InTx(ctx, func(r store.Repos) error {
		var err error
		if m, err = s.ownedAnyState(ctx, r, p, id, "restore"); err != nil || m.Library.TrashedAt == nil {
			return err
		}
		now := s.clock()
		m.Library.TrashedAt, m.Library.UpdatedAt = nil, now
		return s.saveLifecycle(ctx, r, &m.Library, "library.restored", now)
	})
	return m, err
}

// Switch makes a live library the caller reaches their default
// (default_library_id). It does not relax the library-selection rule: a
// caller with several libraries still names one where a request needs it.
func (s *Service) Switch(ctx context.Context, p *catalog.Principal, id string) (*catalog.Membership, error) {
	var m *catalog.Membership
	err := s.store.InTx(ctx, func(r store.Repos) error {
		var err error
		if m, err = s.reach(ctx, r, p, id); err != nil {
			return err
		}
		prefs, err := r.Users().Preferences(ctx, p.User.ID)
		if err != nil {
			return err
		}
		prefs.DefaultLibraryID = &m.Library.ID
		return r.Users().SetPreferences(ctx, p.User.ID, prefs)
	})
	return m, err
}

// clock is the current time at the store's precision (microseconds, UTC),
// so a response written from memory equals what a later read returns.
func (s *Service) clock() time.Time { return s.now().UTC().Truncate(time.Microsecond) }

// ownedAnyState returns the caller's membership of a library, live or
// trashed, and requires the owner role: 404 library_not_found for a non-member, 403
// not_library_owner for another member.
func (s *Service) ownedAnyState(ctx context.Context, r store.Repos, p *catalog.Principal, id, verb string) (*catalog.Membership, error) {
	m, err := r.Libraries().Membership(ctx, id, p.User.ID)
	if errors.Is(err, catalog.ErrNotFound) {
		return nil, libraryNotFound(id)
	}
	if err != nil {
		return nil, err
	}
	if !p.CoversLibrary(id) {
		return nil, fmt.Errorf("this credential's scope does not include library %s: %w", id, catalog.ErrForbidden)
	}
	if !m.Role.IsOwner() {
		return nil, catalog.Coded(catalog.ErrForbidden, catalog.CodeNotLibraryOwner,
			"only the library's owner can "+verb+" it")
	}
	return m, nil
}

// saveLifecycle writes a trashed or restored library and its event.
func (s *Service) saveLifecycle(ctx context.Context, r store.Repos, l *catalog.Library, typ string, now time.Time) error {
	if err := r.Libraries().Update(ctx, l); err != nil {
		return err
	}
	return appendEvent(ctx, r, typ, l.ID, l.ID, map[string]any{"trashed_at": l.TrashedAt}, now)
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
