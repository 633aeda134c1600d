package client

import (
	"context"
	"iter"
	"net/url"

	"github.com/photoctl/photoctl/server/api"
)

// Members iterates over a library's current members, the owner included,
// most recently joined first (any member, session only).
func (c *Client) Members(ctx context.Context, libraryID string) iter.Seq2[api.Member, error] {
	return walk(ctx, c, libraryPath(libraryID)+"/members", nil, "", 0, func(m api.Member) string { return m.ID })
}

// SetMemberRole makes a member a viewer or a collaborator (owner only).
func (c *Client) SetMemberRole(ctx context.Context, libraryID, userID, role string) (*api.Member, error) {
	var m api.Member
	if _, err := c.do(ctx, &call{method: "PATCH", path: memberPath(libraryID, userID),
		body: api.MemberUpdateRequest{Role: role}, out: &m, idempotent: true}); err != nil {
		return nil, err
	}
	return &m, nil
}

// RemoveMember removes a member (owner only); their credentials lose the
// library at once.
func (c *Client) RemoveMember(ctx context.Context, libraryID, userID string) error {
	_, err := c.do(ctx, &call{method: "DELETE", path: memberPath(libraryID, userID), idempotent: true})
	return err
}

// LeaveLibrary ends the caller's membership of a library; its owner cannot
// leave (409 owner_cannot_leave).
func (c *Client) LeaveLibrary(ctx context.Context, libraryID string) error {
	_, err := c.do(ctx, &call{method: "POST", path: libraryPath(libraryID) + "/leave", idempotent: true})
	return err
}

func memberPath(libraryID, userID string) string {
	return libraryPath(libraryID) + "/members/" + url.PathEscape(userID)
}
