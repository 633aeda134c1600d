package libraries

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// InvitationTokenPrefix starts every invitation token (the secret a joiner
// presents; the record's id starts inv_).
const InvitationTokenPrefix = "invite_"

// NewInvitation is what an owner asks for.
type NewInvitation struct {
	Role       catalog.Role
	ExpiresAt  time.Time
	MaxJoiners int
}

// Preview is what a token holder sees before joining.
type Preview struct {
	Invitation catalog.Invitation
	Library    catalog.Library
	Owner      catalog.UserSummary
}

// CreateInvitation issues an invitation to a live library the caller owns
// and returns it with its token, which is stored only as a hash.
func (s *Service) CreateInvitation(ctx context.Context, p *catalog.Principal, libraryID string, in NewInvitation) (*catalog.Invitation, string, error) {
	now := s.clock()
	var fields []catalog.FieldError
	if err := memberRole(in.Role, "body", "role"); err != nil {
		fields = append(fields, fieldsOf(err)...)
	}
	if !in.ExpiresAt.After(now) {
		fields = append(fields, catalog.FieldError{Loc: []any{"body", "expires_at"}, Type: "value_error",
			Msg: "expires_at must be in the future", Input: in.ExpiresAt.UTC().Format(time.RFC3339Nano)})
	}
	if in.MaxJoiners < 1 || in.MaxJoiners > catalog.MaxInvitationJoiners {
		fields = append(fields, catalog.FieldError{Loc: []any{"body", "max_joiners"}, Type: "value_error",
			Msg: fmt.Sprintf("max_joiners must be between 1 and %d", catalog.MaxInvitationJoiners), Input: in.MaxJoiners,
			Ctx: map[string]any{"ge": 1, "le": catalog.MaxInvitationJoiners}})
	}
	if len(fields) > 0 {
		return nil, "", &catalog.ValidationError{Fields: fields}
	}
	token, hash, err := newToken()
	if err != nil {
		return nil, "", err
	}
	inv := &catalog.Invitation{ID: catalog.NewID(catalog.PrefixInvitation, now), LibraryID: libraryID,
		CreatedBy: p.User.Summary(), TokenHash: hash, Role: in.Role, ExpiresAt: in.ExpiresAt.UTC(),
		MaxJoiners: in.MaxJoiners, CreatedAt: now, UpdatedAt: now}
	err = s.store.InTx(ctx, func(r store.Repos) error {
		if _, err := s.ownedShared(ctx, r, p, libraryID, "invites to it"); err != nil {
			return err
		}
		if err := r.Invitations().Create(ctx, inv); err != nil {
			return err
		}
		inv, err = r.Invitations().Get(ctx, inv.ID)
		return err
	})
	if err != nil {
		return nil, "", err
	}
	return inv, token, nil
}

// Invitations pages the invitations of a live library the caller owns,
// newest first.
func (s *Service) Invitations(ctx context.Context, p *catalog.Principal, libraryID string, pg query.Page) ([]catalog.Invitation, bool, error) {
	r := s.store.Read()
	if _, err := s.ownedShared(ctx, r, p, libraryID, "lists its invitations"); err != nil {
		return nil, false, err
	}
	return r.Invitations().List(ctx, libraryID, pg)
}

// PreviewInvitation shows the holder of a token what they would join,
// whatever the invitation's state.
func (s *Service) PreviewInvitation(ctx context.Context, token string) (*Preview, error) {
	r := s.store.Read()
	inv, lib, err := invitationByToken(ctx, r, token)
	if err != nil {
		return nil, err
	}
	owner, err := r.Users().Get(ctx, lib.OwnerID)
	if err != nil {
		return nil, err
	}
	return &Preview{Invitation: *inv, Library: *lib, Owner: owner.Summary()}, nil
}

// Join redeems a token for the caller. The state check, the count of
// places and the insert run in one write transaction, so two accounts
// racing for the last place cannot both win. An account that redeemed this
// invitation before (and left) rejoins without taking a new place.
func (s *Service) Join(ctx context.Context, p *catalog.Principal, token string) (*catalog.Membership, error) {
	var m *catalog.Membership
	err := s.store.InTx(ctx, func(r store.Repos) error {
		inv, lib, err := invitationByToken(ctx, r, token)
		if err != nil {
			return err
		}
		now := s.clock()
		switch inv.State(now) {
		case catalog.InvitationDisabled:
			return catalog.Coded(catalog.ErrConflict, catalog.CodeInvitationDisabled, "the owner disabled this invitation")
		case catalog.InvitationExpired:
			return catalog.Coded(catalog.ErrConflict, catalog.CodeInvitationExpired, "this invitation has expired")
		}
		if _, err := r.Libraries().Membership(ctx, lib.ID, p.User.ID); err == nil {
			return catalog.Coded(catalog.ErrConflict, catalog.CodeAlreadyMember, "you are already a member of this library")
		} else if !errors.Is(err, catalog.ErrNotFound) {
			return err
		}
		removed, err := r.Libraries().RemovedAt(ctx, lib.ID, p.User.ID)
		if err != nil {
			return err
		}
		if removed != nil && !inv.CreatedAt.After(*removed) {
			return catalog.Coded(catalog.ErrConflict, catalog.CodeMemberRemoved,
				"the owner removed you from this library; ask them for a new invitation")
		}
		again, err := r.Invitations().Redeemed(ctx, inv.ID, p.User.ID)
		if err != nil {
			return err
		}
		if !again {
			if inv.RemainingPlaces() == 0 {
				return catalog.Coded(catalog.ErrConflict, catalog.CodeInvitationExhausted,
					"every place of this invitation is taken")
			}
			if err := r.Invitations().Redeem(ctx, inv.ID, p.User.ID, now); err != nil {
				return err
			}
		}
		member := &catalog.Member{User: p.User.Summary(), Role: inv.Role, InvitationID: &inv.ID, JoinedAt: now, UpdatedAt: now}
		if err := r.Libraries().AddMember(ctx, lib.ID, member); err != nil {
			return err
		}
		m = &catalog.Membership{Library: *lib, Role: inv.Role}
		return appendEvent(ctx, r, "member.created", lib.ID, p.User.ID,
			map[string]string{"role": string(inv.Role), "invitation_id": inv.ID}, now)
	})
	return m, err
}

// DisableInvitation stops an invitation admitting anyone; existing members
// stay. Disabling a disabled invitation returns it unchanged.
func (s *Service) DisableInvitation(ctx context.Context, p *catalog.Principal, id string) (*catalog.Invitation, error) {
	var inv *catalog.Invitation
	err := s.store.InTx(ctx, func(r store.Repos) error {
		var err error
		if inv, err = r.Invitations().Get(ctx, id); err != nil {
			return invitationNotFound(err)
		}
		m, err := s.reach(ctx, r, p, inv.LibraryID)
		if err != nil {
			// A non-member learns nothing about the invitation.
			return invitationNotFound(err)
		}
		if !m.Role.IsOwner() {
			return catalog.Coded(catalog.ErrForbidden, catalog.CodeNotLibraryOwner,
				"only the library's owner can disable its invitations")
		}
		if inv.DisabledAt != nil {
			return nil
		}
		if err := r.Invitations().Disable(ctx, id, s.clock()); err != nil {
			return err
		}
		inv, err = r.Invitations().Get(ctx, id)
		return err
	})
	return inv, err
}

// ownedShared is shared plus the owner role (403 not_library_owner).
func (s *Service) ownedShared(ctx context.Context, r store.Repos, p *catalog.Principal, libraryID, what string) (*catalog.Membership, error) {
	m, err := s.shared(ctx, r, p, libraryID)
	if err != nil {
		return nil, err
	}
	if !m.Role.IsOwner() {
		return nil, catalog.Coded(catalog.ErrForbidden, catalog.CodeNotLibraryOwner,
			"only the library's owner "+what)
	}
	return m, nil
}

// invitationByToken finds the invitation of a token and its live library.
// An unknown token, or one whose library is in the trash, is 404
// invitation_not_found.
func invitationByToken(ctx context.Context, r store.Repos, token string) (*catalog.Invitation, *catalog.Library, error) {
	inv, err := r.Invitations().GetByTokenHash(ctx, hashToken(token))
	if err != nil {
		return nil, nil, invitationNotFound(err)
	}
	lib, err := r.Libraries().Get(ctx, inv.LibraryID)
	if err == nil && lib.TrashedAt != nil {
		err = fmt.Errorf("library %s is in the trash: %w", lib.ID, catalog.ErrNotFound)
	}
	if err != nil {
		return nil, nil, invitationNotFound(err)
	}
	return inv, lib, nil
}

// invitationNotFound turns a not-found (or out-of-reach) error into the
// coded sharing 404; other errors pass through.
func invitationNotFound(err error) error {
	if errors.Is(err, catalog.ErrNotFound) || errors.Is(err, catalog.ErrForbidden) {
		return catalog.Coded(catalog.ErrNotFound, catalog.CodeInvitationNotFound, "no such invitation")
	}
	return err
}

// newToken returns a fresh invitation token and its hash.
func newToken() (string, []byte, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", nil, fmt.Errorf("generate invitation token: %w", err)
	}
	token := InvitationTokenPrefix + base64.RawURLEncoding.EncodeToString(b)
	return token, hashToken(token), nil
}

func hashToken(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

// fieldsOf returns the field errors of a validation error.
func fieldsOf(err error) []catalog.FieldError {
	var ve *catalog.ValidationError
	if errors.As(err, &ve) {
		return ve.Fields
	}
	return nil
}
