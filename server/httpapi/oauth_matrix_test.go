package httpapi_test

import (
	"net/http"

	"github.com/photoctl/photoctl/server/api"
)

// oauthRows are the OAuth operations in the authorization matrix. No party
// of the matrix is an administrator, so client management is 403 for every
// session (and for every delegated credential, which it never accepts);
// the authorize endpoint answers a session that reaches it with 422 for an
// unknown client (TestOAuthCodeFlow covers the real flow); the token
// endpoint is public and answers a request that is not a token request
// with 400 (RFC 6749 invalid_request).
func oauthRows() []matrixRow {
	allForbidden := map[caller]int{asOwner: http.StatusForbidden, asCollaborator: http.StatusForbidden,
		asViewer: http.StatusForbidden, asNonMember: http.StatusForbidden}
	clientPath := reqAt(func(*cell) string { return "/api/oauth/clients/oauthclient_01jzzzzzzzzzzzzzzzzzzzzzzz" })
	return []matrixRow{
		{method: "GET", path: "/api/oauth/authorize", sessionOnly: true, ok: http.StatusUnprocessableEntity,
			req: reqAt(func(*cell) string {
				return "/api/oauth/authorize?response_type=code&client_id=oauthclient_unknown&redirect_uri=http%3A%2F%2F127.0.0.1%3A9%2Fcb"
			})},
		{method: "POST", path: "/api/oauth/token", public: true, ok: http.StatusBadRequest,
			req: reqAt(func(*cell) string { return "/api/oauth/token" })},
		{method: "POST", path: "/api/oauth/clients", sessionOnly: true, byRole: allForbidden, req: func(*cell) cellRequest {
			return cellRequest{path: "/api/oauth/clients", body: api.OAuthClientCreateRequest{Name: "cell",
				RedirectURIs: []string{"https://app.example.com/cb"}, Scopes: []string{"all"}}}
		}},
		{method: "GET", path: "/api/oauth/clients", sessionOnly: true, byRole: allForbidden,
			req: reqAt(func(*cell) string { return "/api/oauth/clients" })},
		{method: "GET", path: "/api/oauth/clients/{id}", sessionOnly: true, byRole: allForbidden, req: clientPath},
		{method: "DELETE", path: "/api/oauth/clients/{id}", sessionOnly: true, byRole: allForbidden, req: clientPath},
	}
}

// mintOAuthTokens gives every party an OAuth access token with every scope,
// through the real code flow of an app an administrator registered: the
// matrix's OAuth column.
func (w *matrixWorld) mintOAuthTokens() {
	client := registerClient(w.t, w.s, adminSession(w.t, w.s), api.OAuthClientCreateRequest{Name: "matrix app",
		Scopes: []string{"all"}})
	app := newThirdParty(w.t, w.s, client, "all")
	for _, p := range w.parties {
		p.oauth = app.tokens(p.session).AccessToken
	}
}
