package httpapi

import (
	"net/http"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/adaptor"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/httpapi/convert"
	"github.com/photoctl/photoctl/server/httpapi/openapi"
)

// oauthRoutes are the OAuth authorization server for third-party apps
// (decisions "Authentication"): client registration for administrators,
// the authorize endpoint (a first-party session's call is the consent) and
// the token endpoint. The protocol runs in auth.OAuthServer (ory/fosite)
// over net/http, reached through fiber's adaptor.
func (s *Server) oauthRoutes() []route {
	return []route{
		{"GET", "/api/oauth/authorize", access{kinds: sessionOnly}, s.oauthAuthorize,
			openapi.Doc{Summary: "Authorize a third-party app (authorization code with S256 PKCE); the signed-in " +
				"user's call is the consent. 302 to redirect_uri with code and state, or with an RFC 6749 error",
				Tag: "oauth", Query: oauthAuthorizeParams,
				Must:   []string{"response_type", "client_id", "redirect_uri", "scope", "code_challenge", "code_challenge_method"},
				Status: 302}},
		{"POST", "/api/oauth/token", access{public: true, perAddress: true}, s.oauthToken,
			openapi.Doc{Summary: "Exchange an authorization code (with its PKCE verifier) or rotate a refresh token; " +
				"application/x-www-form-urlencoded; errors are RFC 6749 {error, error_description} with 400 or 401",
				Tag: "oauth", Form: oauthTokenForm{}, Status: 200, Resp: api.OAuthTokenResponse{}}},

		{"POST", "/api/oauth/clients", access{kinds: sessionOnly}, s.createOAuthClient,
			openapi.Doc{Summary: "Register a third-party OAuth client (administrators; the secret is returned once)",
				Tag: "oauth", Body: api.OAuthClientCreateRequest{}, Status: 201, Resp: api.OAuthClientCreated{}}},
		{"GET", "/api/oauth/clients", access{kinds: sessionOnly}, listPage(nil, s.listOAuthClients, convert.OAuthClient),
			openapi.Doc{Summary: "List OAuth clients, newest first (administrators)", Tag: "oauth", Paged: true,
				Status: 200, Resp: api.Page[api.OAuthClient]{}}},
		{"GET", "/api/oauth/clients/:id", access{kinds: sessionOnly}, one(s.auth.GetOAuthClient, convert.OAuthClient),
			openapi.Doc{Summary: "One OAuth client (administrators)", Tag: "oauth", Status: 200, Resp: api.OAuthClient{}}},
		{"DELETE", "/api/oauth/clients/:id", access{kinds: sessionOnly}, s.revokeOAuthClient,
			openapi.Doc{Summary: "Revoke an OAuth client and every token issued to it (administrators)", Tag: "oauth",
				Status: 204}},
	}
}

var oauthAuthorizeParams = []string{"response_type", "client_id", "redirect_uri", "scope", "state",
	"code_challenge", "code_challenge_method", "response_mode"}

// oauthTokenForm documents the token request (RFC 6749 §4.1.3, §6).
type oauthTokenForm struct {
	GrantType    string `formData:"grant_type" required:"true" enum:"authorization_code,refresh_token"`
	Code         string `formData:"code" description:"authorization_code: the code from the redirect."`
	RedirectURI  string `formData:"redirect_uri" description:"authorization_code: the redirect_uri of the authorize request."`
	CodeVerifier string `formData:"code_verifier" description:"authorization_code: the PKCE verifier."`
	RefreshToken string `formData:"refresh_token" description:"refresh_token: the latest refresh token; each use returns a new one."`
	ClientID     string `formData:"client_id" description:"The client (or HTTP Basic authentication with the secret)."`
	ClientSecret string `formData:"client_secret" description:"Confidential clients, unless sent with HTTP Basic."`
}

func (s *Server) oauthAuthorize(c *fiber.Ctx) error {
	ctx, p := c.UserContext(), Principal(c)
	var err error
	if herr := adaptor.HTTPHandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		err = s.oauth.Authorize(ctx, w, r, p)
	})(c); herr != nil {
		return herr
	}
	return err
}

func (s *Server) oauthToken(c *fiber.Ctx) error {
	ctx := c.UserContext()
	return adaptor.HTTPHandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.oauth.Token(ctx, w, r)
	})(c)
}
