package convert

import (
	"time"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/auth"
	"github.com/photoctl/photoctl/server/catalog"
)

// User converts an account as its owner sees it.
func User(u *catalog.User) api.User {
	return api.User{ID: u.ID, IsActive: u.IsActive, IsSuperuser: u.IsSuperuser, IsVerified: u.IsVerified,
		CreatedAt: u.CreatedAt, UpdatedAt: u.UpdatedAt, Email: u.Email, FirstName: u.FirstName, LastName: u.LastName}
}

// AdminUser converts an account as an administrator sees it: with its quota.
func AdminUser(u *catalog.User) api.AdminUser {
	return api.AdminUser{User: User(u), QuotaBytes: u.QuotaBytes}
}

// UserSummary converts a public user view; no name is null.
func UserSummary(u catalog.UserSummary) api.UserSummary {
	out := api.UserSummary{ID: u.ID}
	if u.DisplayName != "" {
		name := u.DisplayName
		out.DisplayName = &name
	}
	return out
}

// Preferences converts a user's preferences.
func Preferences(p catalog.Preferences) api.Preferences {
	return api.Preferences{ImmichLibraryID: p.ImmichLibraryID, DefaultLibraryID: p.DefaultLibraryID}
}

// Tokens converts a sign-in's tokens; u is the signed-in user, nil on a
// refresh (the answer then has no user).
func Tokens(t *auth.Tokens, u *api.User) api.TokenResponse {
	return api.TokenResponse{AccessToken: t.AccessToken, RefreshToken: t.RefreshToken, TokenType: "Bearer",
		ExpiresIn: int(t.ExpiresIn.Seconds()), User: u}
}

// APIKey converts an API key (never its secret).
func APIKey(k *catalog.APIKey) api.APIKey {
	return api.APIKey{ID: k.ID, Name: k.Name, Scope: api.APIKeyScope{Actions: actionNames(k.Scope.Actions), LibraryIDs: k.Scope.LibraryIDs},
		LastUsedAt: k.LastUsedAt, CreatedAt: k.CreatedAt, UpdatedAt: k.UpdatedAt}
}

// FromScope reads a request's key scope; nil (no scope sent) stays nil.
func FromScope(s *api.APIKeyScope) *catalog.Scope {
	if s == nil {
		return nil
	}
	out := &catalog.Scope{Actions: make([]catalog.Action, len(s.Actions)), LibraryIDs: s.LibraryIDs}
	for i, a := range s.Actions {
		out.Actions[i] = catalog.Action(a)
	}
	return out
}

// OAuthClient converts a registered OAuth client.
func OAuthClient(c *catalog.OAuthClient) api.OAuthClient {
	return api.OAuthClient{ID: c.ID, Name: c.Name, RedirectURIs: c.RedirectURIs, Scopes: actionNames(c.Scopes), Public: c.Public(),
		CreatedAt: c.CreatedAt, RevokedAt: c.RevokedAt}
}

// actionNames are actions as the wire names them; never null.
func actionNames(actions []catalog.Action) []string {
	out := make([]string, len(actions))
	for i, a := range actions {
		out[i] = string(a)
	}
	return out
}

// Library converts a library as the member m sees it: with m's role.
func Library(m *catalog.Membership) api.Library {
	l := m.Library
	return api.Library{ID: l.ID, Name: l.Name, OwnerID: l.OwnerID, Role: string(m.Role), TrashedAt: l.TrashedAt,
		CreatedAt: l.CreatedAt, UpdatedAt: l.UpdatedAt}
}

// Member converts a library's member.
func Member(m *catalog.Member) api.Member {
	s := UserSummary(m.User)
	return api.Member{ID: s.ID, DisplayName: s.DisplayName, Role: string(m.Role), InvitationID: m.InvitationID,
		JoinedAt: m.JoinedAt, UpdatedAt: m.UpdatedAt}
}

// Invitation converts an invitation with its state derived at now.
func Invitation(inv *catalog.Invitation, now time.Time) api.Invitation {
	return api.Invitation{ID: inv.ID, LibraryID: inv.LibraryID, CreatedBy: UserSummary(inv.CreatedBy),
		Role: string(inv.Role), ExpiresAt: inv.ExpiresAt, MaxJoiners: inv.MaxJoiners, JoinerCount: inv.JoinerCount,
		RemainingPlaces: inv.RemainingPlaces(), State: string(inv.State(now)), DisabledAt: inv.DisabledAt,
		CreatedAt: inv.CreatedAt, UpdatedAt: inv.UpdatedAt}
}
