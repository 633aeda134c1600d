package client

import (
	"context"
	"iter"
	"net/url"

	"github.com/photoctl/photoctl/server/api"
)

// UpdateMe changes the caller's names, or password (PATCH /api/users/me;
// a password change sends the current one and ends the other sessions).
func (c *Client) UpdateMe(ctx context.Context, u api.UserUpdate) (*api.User, error) {
	var out api.User
	if _, err := c.do(ctx, &call{method: "PATCH", path: "/api/users/me", body: u, out: &out}); err != nil {
		return nil, err
	}
	return &out, nil
}

// Storage returns the caller's storage allowance and use.
func (c *Client) Storage(ctx context.Context) (*api.StorageUsage, error) {
	var out api.StorageUsage
	if _, err := c.do(ctx, &call{method: "GET", path: "/api/users/me/storage", idempotent: true, out: &out}); err != nil {
		return nil, err
	}
	return &out, nil
}

// AdminUsers iterates over every account, newest first; email filters by
// substring (superuser).
func (c *Client) AdminUsers(ctx context.Context, email string) iter.Seq2[api.AdminUser, error] {
	q := url.Values{}
	setIf(q, "email", email)
	return walk(ctx, c, "/api/admin/users", q, "", 0, func(u api.AdminUser) string { return u.ID })
}

// AdminUser returns one account (superuser).
func (c *Client) AdminUser(ctx context.Context, id string) (*api.AdminUser, error) {
	var out api.AdminUser
	if _, err := c.do(ctx, &call{method: "GET", path: "/api/admin/users/" + url.PathEscape(id), idempotent: true, out: &out}); err != nil {
		return nil, err
	}
	return &out, nil
}

// CreateUser creates an account (superuser); without a password the
// answer carries a generated one, shown once.
func (c *Client) CreateUser(ctx context.Context, u api.AdminUserCreate) (*api.AdminUserCreated, error) {
	var out api.AdminUserCreated
	if _, err := c.do(ctx, &call{method: "POST", path: "/api/admin/users", body: u, out: &out}); err != nil {
		return nil, err
	}
	return &out, nil
}

// UpdateUser changes an account (superuser). Only the fields u sets are
// sent; QuotaBytes set with a nil value makes the allowance unlimited.
func (c *Client) UpdateUser(ctx context.Context, id string, u api.AdminUserUpdate) (*api.AdminUser, error) {
	body := map[string]any{}
	for k, v := range map[string]any{"first_name": u.FirstName, "last_name": u.LastName, "is_active": u.IsActive,
		"is_superuser": u.IsSuperuser, "password": u.Password} {
		switch p := v.(type) {
		case *string:
			if p != nil {
				body[k] = *p
			}
		case *bool:
			if p != nil {
				body[k] = *p
			}
		}
	}
	if u.QuotaBytes.Set {
		body["quota_bytes"] = u.QuotaBytes
	}
	var out api.AdminUser
	if _, err := c.do(ctx, &call{method: "PATCH", path: "/api/admin/users/" + url.PathEscape(id), body: body, out: &out}); err != nil {
		return nil, err
	}
	return &out, nil
}

// DeleteUser deletes an account with the libraries it owns (superuser);
// 409 while one of them has other members.
func (c *Client) DeleteUser(ctx context.Context, id string) error {
	_, err := c.do(ctx, &call{method: "DELETE", path: "/api/admin/users/" + url.PathEscape(id)})
	return err
}
