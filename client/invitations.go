package client

import (
	"context"
	"iter"
	"net/url"
	"time"

	"github.com/photoctl/photoctl/server/api"
)

// CreateInvitation invites people to a library with a role (viewer or
// collaborator) until expiresAt, for at most maxJoiners accounts (owner,
// session only). The token in the answer is shown this once.
func (c *Client) CreateInvitation(ctx context.Context, libraryID, role string, expiresAt time.Time, maxJoiners int) (*api.InvitationCreated, error) {
	expires := expiresAt.UTC().Format(time.RFC3339)
	req := api.InvitationCreateRequest{Role: &role, ExpiresAt: &expires, MaxJoiners: &maxJoiners}
	var inv api.InvitationCreated
	if _, err := c.do(ctx, &call{method: "POST", path: libraryPath(libraryID) + "/invitations", body: req,
		out: &inv}); err != nil {
		return nil, err
	}
	return &inv, nil
}

// Invitations iterates over a library's invitations, newest first, without
// their tokens (owner, session only).
func (c *Client) Invitations(ctx context.Context, libraryID string) iter.Seq2[api.Invitation, error] {
	return walk(ctx, c, libraryPath(libraryID)+"/invitations", nil, "", 0, func(i api.Invitation) string { return i.ID })
}

// PreviewInvitation tells what a token offers: the library, its owner, the
// role, the state and the places left, whatever the state.
func (c *Client) PreviewInvitation(ctx context.Context, token string) (*api.InvitationPreview, error) {
	var p api.InvitationPreview
	if _, err := c.do(ctx, &call{method: "POST", path: "/api/libraries/invitations/preview",
		body: api.InvitationTokenRequest{Token: token}, out: &p, idempotent: true}); err != nil {
		return nil, err
	}
	return &p, nil
}

// JoinInvitation joins the library of a token and returns it as the
// joiner now sees it. Refusals are 409s with a code: invitation_disabled,
// invitation_expired, already_member, member_removed, invitation_exhausted.
func (c *Client) JoinInvitation(ctx context.Context, token string) (*api.Library, error) {
	var l api.Library
	if _, err := c.do(ctx, &call{method: "POST", path: "/api/libraries/invitations/join",
		body: api.InvitationTokenRequest{Token: token}, out: &l}); err != nil {
		return nil, err
	}
	return &l, nil
}

// DisableInvitation disables an invitation (owner); its members stay, and
// repeating returns the same record.
func (c *Client) DisableInvitation(ctx context.Context, id string) (*api.Invitation, error) {
	var inv api.Invitation
	if _, err := c.do(ctx, &call{method: "POST", path: "/api/libraries/invitations/" + url.PathEscape(id) + "/disable",
		out: &inv, idempotent: true}); err != nil {
		return nil, err
	}
	return &inv, nil
}

func libraryPath(id string) string { return "/api/libraries/" + url.PathEscape(id) }
