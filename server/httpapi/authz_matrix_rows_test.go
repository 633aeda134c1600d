package httpapi_test

import (
	"time"

	"fmt"
	"net/http"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
)

// rows is one row per operation of the API. A row says what the
// operation needs (public, session only, the least role in the shared
// library) and how to build a request for one cell; the expected status of
// every cell follows from that (row.expected). Add a row with every new
// endpoint: TestAuthorizationMatrixCoversEveryOperation insists.
func matrixRows() []matrixRow {
	var rows []matrixRow
	for _, group := range [][]matrixRow{publicRows(), accountRows(), libraryRows(), sharingRows(), assetRows(), versionRows(),
		contentRows(), searchRows(), oauthRows(), mcpRows(), userRows()} {
		rows = append(rows, group...)
	}
	return rows
}

// at is a builder for a request without body.
func reqAt(path func(c *cell) string) func(c *cell) cellRequest {
	return func(c *cell) cellRequest { return cellRequest{path: path(c)} }
}

// sharedPath is a path under the shared library.
func sharedPath(suffix string) func(c *cell) cellRequest {
	return reqAt(func(c *cell) string { return "/api/libraries/" + c.shared + suffix })
}

func publicRows() []matrixRow {
	return []matrixRow{
		{method: "GET", path: "/api/health/ping", public: true, req: reqAt(func(*cell) string { return "/api/health/ping" })},
		{method: "GET", path: "/api/openapi.json", public: true, req: reqAt(func(*cell) string { return "/api/openapi.json" })},
		{method: "POST", path: "/api/auth/login", public: true, req: func(c *cell) cellRequest {
			u := c.me().user
			return cellRequest{path: "/api/auth/login", body: api.LoginRequest{Email: u.Email, Password: u.Password}}
		}},
		{method: "POST", path: "/api/auth/refresh", public: true, req: func(c *cell) cellRequest {
			return cellRequest{path: "/api/auth/refresh", body: api.RefreshRequest{RefreshToken: c.s.Login(c.me().user).RefreshToken}}
		}},
		// The matrix server has no identity provider: the OIDC routes are
		// 404 for everyone (decisions.md); oidc_test.go covers them with one.
		{method: "GET", path: "/api/auth/oidc/start", public: true, ok: http.StatusNotFound,
			req: reqAt(func(*cell) string { return "/api/auth/oidc/start?redirect_uri=http://127.0.0.1:1/cb" })},
		{method: "POST", path: "/api/auth/oidc/callback", public: true, ok: http.StatusNotFound, req: func(*cell) cellRequest {
			return cellRequest{path: "/api/auth/oidc/callback",
				body: map[string]string{"code": "c", "state": "statestate", "redirect_uri": "http://127.0.0.1:1/cb"}}
		}},
		{method: "GET", path: "/api/oauth/logout-endpoint", public: true, ok: http.StatusNotFound,
			req: reqAt(func(*cell) string { return "/api/oauth/logout-endpoint" })},
	}
}

func accountRows() []matrixRow {
	keyPath := func(c *cell) string { return "/api/api-keys/" + c.me().key.ID }
	return []matrixRow{
		{method: "POST", path: "/api/auth/logout", sessionOnly: true, ok: http.StatusNoContent, req: func(c *cell) cellRequest {
			if !c.cred.firstParty {
				return cellRequest{path: "/api/auth/logout"}
			}
			// A session of its own: the party's fixture session lives on.
			return cellRequest{path: "/api/auth/logout", token: c.s.Login(c.me().user).AccessToken}
		}},
		{method: "GET", path: "/api/users/me", req: reqAt(func(*cell) string { return "/api/users/me" })},
		{method: "GET", path: "/api/users/me/preferences", req: reqAt(func(*cell) string { return "/api/users/me/preferences" })},
		{method: "PATCH", path: "/api/users/me/preferences", req: func(*cell) cellRequest {
			return cellRequest{path: "/api/users/me/preferences", body: map[string]any{"immich_library_id": nil}}
		}},
		{method: "POST", path: "/api/api-keys", sessionOnly: true, ok: http.StatusCreated, req: func(*cell) cellRequest {
			return cellRequest{path: "/api/api-keys", body: api.APIKeyCreateRequest{Name: "cell",
				Scope: &api.APIKeyScope{Actions: []string{"asset.read"}}}}
		}},
		{method: "GET", path: "/api/api-keys", sessionOnly: true, req: reqAt(func(*cell) string { return "/api/api-keys" })},
		{method: "GET", path: "/api/api-keys/{id}", sessionOnly: true, req: reqAt(keyPath)},
		{method: "PATCH", path: "/api/api-keys/{id}", sessionOnly: true, req: func(c *cell) cellRequest {
			return cellRequest{path: keyPath(c), body: map[string]any{"name": "matrix"}}
		}},
		{method: "DELETE", path: "/api/api-keys/{id}", sessionOnly: true, ok: http.StatusNoContent, req: reqAt(func(c *cell) string {
			return "/api/api-keys/" + c.newKey(c.me().session, nil).ID
		})},
	}
}

func libraryRows() []matrixRow {
	return []matrixRow{
		{method: "GET", path: "/api/libraries", req: reqAt(func(*cell) string { return "/api/libraries?state=all" })},
		{method: "POST", path: "/api/libraries", sessionOnly: true, ok: http.StatusCreated, req: func(c *cell) cellRequest {
			return cellRequest{path: "/api/libraries", body: api.LibraryCreateRequest{Name: fmt.Sprintf("cell %d", c.next())}}
		}},
		{method: "GET", path: "/api/libraries/{id}", needs: needRead, req: sharedPath("")},
		{method: "PATCH", path: "/api/libraries/{id}", sessionOnly: true, needs: needOwner, req: func(c *cell) cellRequest {
			return cellRequest{path: "/api/libraries/" + c.shared, body: map[string]any{"name": fmt.Sprintf("Shared %d", c.next())}}
		}},
		{method: "POST", path: "/api/libraries/{id}/trash", sessionOnly: true, sharing: true, needs: needOwner,
			req: reqAt(func(c *cell) string { return "/api/libraries/" + c.freshShared() + "/trash" })},
		{method: "POST", path: "/api/libraries/{id}/restore", sessionOnly: true, sharing: true, needs: needOwner,
			req: reqAt(func(c *cell) string {
				id := c.freshShared()
				r := c.s.Do("POST", "/api/libraries/"+id+"/trash", c.parties[asOwner].session, nil)
				require.Equal(c.t, http.StatusOK, r.Status, "trash: %s", r.Body)
				return "/api/libraries/" + id + "/restore"
			})},
		{method: "POST", path: "/api/libraries/{id}/switch", needs: needRead, req: sharedPath("/switch")},
		{method: "GET", path: "/api/events", needs: needRead,
			req: reqAt(func(c *cell) string { return "/api/events?library_id=" + c.shared })},
	}
}

func sharingRows() []matrixRow {
	return []matrixRow{
		{method: "GET", path: "/api/libraries/{id}/members", sessionOnly: true, sharing: true, needs: needRead,
			req: sharedPath("/members")},
		{method: "PATCH", path: "/api/libraries/{id}/members/{user_id}", sessionOnly: true, sharing: true, needs: needOwner,
			req: func(c *cell) cellRequest {
				// The viewer keeps their role: the change succeeds and changes nothing.
				return cellRequest{path: "/api/libraries/" + c.shared + "/members/" + c.parties[asViewer].user.ID,
					body: api.MemberUpdateRequest{Role: "viewer"}}
			}},
		{method: "DELETE", path: "/api/libraries/{id}/members/{user_id}", sessionOnly: true, sharing: true,
			needs: needOwner, ok: http.StatusNoContent, req: reqAt(func(c *cell) string {
				target := c.parties[asViewer].user.ID
				if c.succeeds {
					target = c.freshMember().ID
				}
				return "/api/libraries/" + c.shared + "/members/" + target
			})},
		{method: "POST", path: "/api/libraries/{id}/leave", sessionOnly: true, sharing: true, needs: needRead,
			ok: http.StatusNoContent, byRole: map[caller]int{asOwner: http.StatusConflict},
			req: reqAt(func(c *cell) string { return "/api/libraries/" + c.freshShared() + "/leave" })},
		{method: "POST", path: "/api/libraries/{id}/invitations", sessionOnly: true, sharing: true, needs: needOwner,
			ok: http.StatusCreated, req: func(c *cell) cellRequest {
				return cellRequest{path: "/api/libraries/" + c.shared + "/invitations", body: inviteBody(c.s, "viewer", time.Hour, 2)}
			}},
		{method: "GET", path: "/api/libraries/{id}/invitations", sessionOnly: true, sharing: true, needs: needOwner,
			req: sharedPath("/invitations")},
		{method: "POST", path: "/api/libraries/invitations/preview", sessionOnly: true, sharing: true, req: func(c *cell) cellRequest {
			return cellRequest{path: "/api/libraries/invitations/preview", body: api.InvitationTokenRequest{Token: c.invitation.Token}}
		}},
		{method: "POST", path: "/api/libraries/invitations/join", sessionOnly: true, sharing: true,
			byRole: map[caller]int{asOwner: http.StatusConflict, asCollaborator: http.StatusConflict, asViewer: http.StatusConflict},
			req: func(c *cell) cellRequest {
				// Members of a fresh library: a non-member who joins leaves the fixture alone.
				token := c.freshInvitation(c.freshShared()).Token
				return cellRequest{path: "/api/libraries/invitations/join", body: api.InvitationTokenRequest{Token: token}}
			}},
		{method: "POST", path: "/api/libraries/invitations/{invitation_id}/disable", sessionOnly: true, sharing: true,
			needs: needOwner, req: reqAt(func(c *cell) string {
				return "/api/libraries/invitations/" + c.freshInvitation(c.shared).ID + "/disable"
			})},
	}
}

func assetRows() []matrixRow {
	assetPath := func(suffix string) func(c *cell) cellRequest {
		return reqAt(func(c *cell) string { return "/api/assets/" + c.asset.ID + suffix })
	}
	freshIDs := func(c *cell) cellRequest {
		return cellRequest{path: "/api/assets", body: api.AssetIDs{IDs: []string{c.freshAsset().ID}}}
	}
	return []matrixRow{
		{method: "POST", path: "/api/assets", needs: needWrite, ok: http.StatusCreated, req: func(c *cell) cellRequest {
			return cellRequest{path: "/api/assets", file: &cellFile{name: "cell.jpg", data: c.jpeg(),
				form: map[string]string{"library_id": c.shared}}}
		}},
		{method: "GET", path: "/api/assets", needs: needRead,
			req: reqAt(func(c *cell) string { return "/api/assets?library_id=" + c.shared })},
		{method: "GET", path: "/api/assets/counts", needs: needRead,
			req: reqAt(func(c *cell) string { return "/api/assets/counts?library_id=" + c.shared })},
		{method: "GET", path: "/api/assets/geo-clusters", needs: needRead, req: reqAt(func(c *cell) string {
			return "/api/assets/geo-clusters?bbox=-180,-90,180,90&cell_size=10&library_id=" + c.shared
		})},
		{method: "POST", path: "/api/assets/check", needs: needRead, req: func(c *cell) cellRequest {
			return cellRequest{path: "/api/assets/check", body: api.ChecksumCheckRequest{LibraryID: &c.shared,
				Checksums: []string{c.asset.Checksum}}}
		}},
		{method: "POST", path: "/api/assets/bulk-update", needs: needWrite, nonMemberGets: http.StatusUnprocessableEntity,
			req: func(c *cell) cellRequest {
				return cellRequest{path: "/api/assets/bulk-update", body: map[string]any{"updates": []map[string]any{
					{"id": c.asset.ID, "change": map[string]any{"rating": 1}}}}}
			}},
		{method: "POST", path: "/api/assets/trash", needs: needWrite, nonMemberGets: http.StatusUnprocessableEntity,
			req: func(c *cell) cellRequest { r := freshIDs(c); r.path += "/trash"; return r }},
		{method: "POST", path: "/api/assets/restore", needs: needWrite, nonMemberGets: http.StatusUnprocessableEntity,
			req: func(c *cell) cellRequest {
				r := freshIDs(c)
				resp := c.s.Do("POST", "/api/assets/trash", c.parties[asOwner].session, r.body)
				require.Equal(c.t, http.StatusOK, resp.Status, "trash: %s", resp.Body)
				r.path += "/restore"
				return r
			}},
		{method: "DELETE", path: "/api/assets", needs: needOwner, nonMemberGets: http.StatusUnprocessableEntity, req: freshIDs},
		{method: "GET", path: "/api/assets/{id}", needs: needRead, req: assetPath("")},
		{method: "PATCH", path: "/api/assets/{id}", needs: needWrite, req: func(c *cell) cellRequest {
			return cellRequest{path: "/api/assets/" + c.asset.ID, body: map[string]any{"rating": 2}}
		}},
		{method: "GET", path: "/api/assets/{id}/original", needs: needRead, req: assetPath("/original")},
		{method: "GET", path: "/api/assets/{id}/variants/{name}", needs: needRead, req: assetPath("/variants/thumbnail")},
		{method: "HEAD", path: "/api/assets/{id}/original", needs: needRead, req: assetPath("/original")},
		{method: "HEAD", path: "/api/assets/{id}/variants/{name}", needs: needRead, req: assetPath("/variants/thumbnail")},
	}
}

func versionRows() []matrixRow {
	// freshVersionPath is a new asset with a new version, for rows that
	// replace or delete it.
	freshVersionPath := func(c *cell) string {
		a := c.freshAsset()
		return "/api/assets/" + a.ID + "/versions/" + c.freshVersion(a.ID).ID
	}
	return []matrixRow{
		{method: "GET", path: "/api/assets/{id}/versions", needs: needRead,
			req: reqAt(func(c *cell) string { return "/api/assets/" + c.asset.ID + "/versions" })},
		{method: "POST", path: "/api/assets/{id}/versions", needs: needWrite, ok: http.StatusCreated, req: func(c *cell) cellRequest {
			return cellRequest{path: "/api/assets/" + c.asset.ID + "/versions", file: &cellFile{name: "v.jpg", data: c.jpeg()}}
		}},
		{method: "PUT", path: "/api/assets/{id}/versions/{version_id}", needs: needWrite, req: func(c *cell) cellRequest {
			return cellRequest{path: freshVersionPath(c), file: &cellFile{name: "v.jpg", data: c.jpeg()}}
		}},
		{method: "POST", path: "/api/assets/{id}/versions/{version_id}/revert", needs: needWrite,
			req: reqAt(func(c *cell) string { return "/api/assets/" + c.asset.ID + "/versions/" + c.version.ID + "/revert" })},
		{method: "DELETE", path: "/api/assets/{id}/versions/{version_id}", needs: needWrite, ok: http.StatusNoContent,
			req: reqAt(freshVersionPath)},
		{method: "GET", path: "/api/assets/{id}/versions/{version_id}/file", needs: needRead,
			req: reqAt(func(c *cell) string { return "/api/assets/" + c.asset.ID + "/versions/" + c.version.ID + "/file" })},
		{method: "HEAD", path: "/api/assets/{id}/versions/{version_id}/file", needs: needRead,
			req: reqAt(func(c *cell) string { return "/api/assets/" + c.asset.ID + "/versions/" + c.version.ID + "/file" })},
	}
}
