package libraries

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// Members pages the current members of a live library the caller belongs
// to, the owner included, most recently joined first. Any member may list
// them; only the owner changes them.
func (s *Service) Members(ctx context.Context, p *catalog.Principal, libraryID string, pg query.Page) ([]catalog.Member, bool, error) {
	r := s.store.Read()
	if _, err := s.shared(ctx, r, p, libraryID); err != nil {
		return nil, false, err
	}
	return r.Libraries().Members(ctx, libraryID, pg)
}

// SetMemberRole gives a member another role (viewer or collaborator). The
// same role returns the member unchanged.
func (s *Service) SetMemberRole(ctx context.Context, p *catalog.Principal, libraryID, userID string, role catalog.Role) (*catalog.Member, error) {
	if err := memberRole(role, "body", "role"); err != nil {
		return nil, err
	}
	var out *catalog.Member
	err := s.store.InTx(ctx, func(r store.Repos) error {
		m, err := s.administered(ctx, r, p, libraryID, userID, "the owner's role cannot change")
		if err != nil || m.Role == role {
			out = m
			return err
		}
		now := s.clock()
		if err := r.Libraries().SetMemberRole(ctx, libraryID, userID, role, now); err != nil {
			return err
		}
		if err := appendEvent(ctx, r, "member.updated", libraryID, userID, map[string]string{"role": string(role)}, now); err != nil {
			return err
		}
		out, err = r.Libraries().Member(ctx, libraryID, userID)
		return err
	})
	return out, err
}

// RemoveMember ends another member's membership. From the next request on
// every credential of theirs (session, API key, OAuth token) is refused
// that library, and invitations issued before the removal no longer admit
// them.
func (s *Service) RemoveMember(ctx context.Context, p *catalog.Principal, libraryID, userID string) error {
	return s.store.InTx(ctx, func(r store.Repos) error {
		if _, err := s.administered(ctx, r, p, libraryID, userID, "the owner cannot be removed; trash the library instead"); err != nil {
			return err
		}
		now := s.clock()
		if err := r.Libraries().RecordRemoval(ctx, libraryID, userID, now); err != nil {
			return err
		}
		return s.depart(ctx, r, libraryID, userID, "removed", now)
	})
}

// Leave ends the caller's own membership of a library, live or trashed.
// The owner cannot leave (409 owner_cannot_leave).
func (s *Service) Leave(ctx context.Context, p *catalog.Principal, libraryID string) error {
	return s.store.InTx(ctx, func(r store.Repos) error {
		m, err := r.Libraries().Membership(ctx, libraryID, p.User.ID)
		if errors.Is(err, catalog.ErrNotFound) {
			return libraryNotFound(libraryID)
		}
		if err != nil {
			return err
		}
		if m.Role.IsOwner() {
			return catalog.Coded(catalog.ErrConflict, catalog.CodeOwnerCannotLeave,
				"the owner cannot leave their library; trash it instead")
		}
		return s.depart(ctx, r, libraryID, p.User.ID, "left", s.clock())
	})
}

// depart deletes a membership, forgets the library in the user's
// preferences and appends member.deleted, in the caller's transaction.
func (s *Service) depart(ctx context.Context, r store.Repos, libraryID, userID, reason string, now time.Time) error {
	if err := r.Libraries().DeleteMember(ctx, libraryID, userID); err != nil {
		return err
	}
	prefs, err := r.Users().Preferences(ctx, userID)
	if err != nil {
		return err
	}
	changed := false
	for _, ref := range []**string{&prefs.DefaultLibraryID, &prefs.ImmichLibraryID} {
		if *ref != nil && **ref == libraryID {
			*ref, changed = nil, true
		}
	}
	if changed {
		if err := r.Users().SetPreferences(ctx, userID, prefs); err != nil {
			return err
		}
	}
	return appendEvent(ctx, r, "member.deleted", libraryID, userID, map[string]string{"reason": reason}, now)
}

// administered returns a member other than the owner of a live library the
// caller owns: 404 library_not_found for a library the caller cannot
// reach, 403 not_library_owner for a member who is not its owner, 404
// member_not_found for someone who is not a member, 422 for the owner.
func (s *Service) administered(ctx context.Context, r store.Repos, p *catalog.Principal, libraryID, userID, ownerMsg string) (*catalog.Member, error) {
	lm, err := s.shared(ctx, r, p, libraryID)
	if err != nil {
		return nil, err
	}
	if !lm.Role.IsOwner() {
		return nil, catalog.Coded(catalog.ErrForbidden, catalog.CodeNotLibraryOwner,
			"only the library's owner manages its members")
	}
	if userID == lm.Library.OwnerID {
		return nil, catalog.InvalidField("value_error", ownerMsg, userID, "path", "user_id")
	}
	m, err := r.Libraries().Member(ctx, libraryID, userID)
	if errors.Is(err, catalog.ErrNotFound) {
		return nil, catalog.Coded(catalog.ErrNotFound, catalog.CodeMemberNotFound,
			fmt.Sprintf("%s is not a member of this library", userID))
	}
	return m, err
}

// shared is reach for the sharing operations: a library the caller cannot
// reach is 404 with code library_not_found.
func (s *Service) shared(ctx context.Context, r store.Repos, p *catalog.Principal, libraryID string) (*catalog.Membership, error) {
	m, err := s.reach(ctx, r, p, libraryID)
	if errors.Is(err, catalog.ErrNotFound) {
		return nil, libraryNotFound(libraryID)
	}
	return m, err
}

func libraryNotFound(id string) error {
	return catalog.Coded(catalog.ErrNotFound, catalog.CodeLibraryNotFound,
		fmt.Sprintf("library %s not found among your libraries", id))
}

// memberRole accepts the roles an invitation or role change may give.
func memberRole(role catalog.Role, loc ...any) error {
	if role != catalog.RoleViewer && role != catalog.RoleCollaborator {
		return catalog.InvalidField("enum", "role must be viewer or collaborator", string(role), loc...)
	}
	return nil
}
