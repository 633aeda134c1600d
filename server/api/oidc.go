package api

// OIDCStartResponse is the answer of GET /api/auth/oidc/start: where to send
// the user, and the state the callback must bring back.
type OIDCStartResponse struct {
	AuthorizeURL string `json:"authorize_url"`
	State        string `json:"state"`
}

// OIDCCallbackRequest finishes a sign-in through the identity provider
// (POST /api/auth/oidc/callback): the code and state the provider sent to
// redirect_uri, which must be the one the sign-in started with.
type OIDCCallbackRequest struct {
	Code        string `json:"code"`
	State       string `json:"state"`
	RedirectURI string `json:"redirect_uri"`
}

// LogoutEndpoint is the identity provider's logout URL
// (GET /api/oauth/logout-endpoint).
type LogoutEndpoint struct {
	LogoutEndpoint string `json:"logout_endpoint"`
}
