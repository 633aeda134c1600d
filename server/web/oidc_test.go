package web_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/servertest"
	"github.com/photoctl/photoctl/server/servertest/oidcprovider"
)

// TestGallerySignInThroughTheIdentityProvider: with a provider configured,
// the sign-in page offers it; its button goes through the provider (a
// real OpenID provider on loopback) and back to the timeline, signed in
// with the session cookie.
func TestGallerySignInThroughTheIdentityProvider(t *testing.T) {
	b := startBrowser(t)
	p := oidcprovider.Start(t)
	p.AddUser(oidcprovider.User{Subject: "sub-web", Email: "web@example.com", EmailVerified: true, FirstName: "Wendy"})
	p.SignInAs("sub-web")
	s := servertest.Start(t, func(c *app.Config) {
		c.OIDC.Issuer, c.OIDC.ClientID, c.OIDC.ClientSecret = p.Issuer, oidcprovider.ClientID, oidcprovider.ClientSecret
		c.OIDC.Timeout = 5 * time.Second
	})

	b.do(t, chromedp.Navigate(s.URL+"/signin"), chromedp.WaitVisible(css(`.oidc a`)))
	label, err := chromedp.Run(b.ctx, chromedp.Text(css(`.oidc a`)))
	require.NoError(t, err)
	require.Equal(t, "Sign in with "+strings.TrimPrefix(p.Issuer, "http://"), label)
	b.do(t, chromedp.Click(css(`.oidc a`)))
	b.waitFor(t, "the timeline, signed in", `location.pathname === '/' && document.querySelector('#timeline[aria-busy="false"]') !== null`)
	who, err := chromedp.Run(b.ctx, chromedp.Text(css(`.who`)))
	require.NoError(t, err)
	require.Equal(t, "Wendy", who)

	// Signed out, an invitation link (the token in its fragment) survives
	// the provider's pages: the sign-in returns to the join page, which
	// finds the token the sign-in page kept in the tab.
	_, owner := s.Session()
	lib := s.Libraries(owner)[0]
	var inv api.InvitationCreated
	r := s.Do("POST", "/api/libraries/"+lib.ID+"/invitations", owner, map[string]any{"role": "viewer",
		"expires_at": time.Now().Add(24 * time.Hour).UTC().Format(time.RFC3339), "max_joiners": 1})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	r.JSON(t, &inv)
	b.do(t, chromedp.Submit(css(`form.signout`)))
	b.waitFor(t, "signed out", `location.pathname === '/signin'`)
	b.do(t, chromedp.Navigate(s.URL+"/join#token="+inv.Token), chromedp.WaitVisible(css(`.oidc a`)))
	b.do(t, chromedp.Click(css(`.oidc a`)))
	b.waitFor(t, "the join page with the invitation", `location.pathname === '/join' && !document.getElementById('join-button').hidden`)
	require.Equal(t, "#token="+inv.Token, eval[string](t, b, `location.hash`), "the fragment is back in the address")
	require.Equal(t, "0", eval[string](t, b, `String(sessionStorage.length)`), "taken once")
	b.noPageErrors(t)
}
