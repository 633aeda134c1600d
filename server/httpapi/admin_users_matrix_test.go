package httpapi_test

import (
	"net/http"

	"github.com/photoctl/photoctl/server/api"
)

// userRows are the account self-service and user administration rows of
// the authorization matrix. No party of the matrix is a superuser, so
// administration is 403 for every caller and credential (its keys and
// tokens grant every action: the refusal is the account's, not the
// scope's); TestAdminUsersRoleMatrix covers superusers.
func userRows() []matrixRow {
	allForbidden := map[caller]int{asOwner: http.StatusForbidden, asCollaborator: http.StatusForbidden,
		asViewer: http.StatusForbidden, asNonMember: http.StatusForbidden}
	userPath := func(c *cell) string { return "/api/admin/users/" + c.me().user.ID }
	return []matrixRow{
		{method: "PATCH", path: "/api/users/me", req: func(*cell) cellRequest {
			return cellRequest{path: "/api/users/me", body: api.UserUpdate{LastName: ptr("Cell")}}
		}},
		{method: "GET", path: "/api/users/me/storage", req: reqAt(func(*cell) string { return "/api/users/me/storage" })},
		{method: "GET", path: "/api/admin/users", byRole: allForbidden, req: reqAt(func(*cell) string { return "/api/admin/users" })},
		{method: "POST", path: "/api/admin/users", byRole: allForbidden, req: func(c *cell) cellRequest {
			return cellRequest{path: "/api/admin/users", body: api.AdminUserCreate{Email: "cell@example.com"}}
		}},
		{method: "GET", path: "/api/admin/users/{id}", byRole: allForbidden, req: reqAt(userPath)},
		{method: "PATCH", path: "/api/admin/users/{id}", byRole: allForbidden, req: func(c *cell) cellRequest {
			return cellRequest{path: userPath(c), body: api.AdminUserUpdate{IsSuperuser: ptr(true)}}
		}},
		{method: "DELETE", path: "/api/admin/users/{id}", byRole: allForbidden, req: reqAt(userPath)},
	}
}
