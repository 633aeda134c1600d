package web_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

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
	b.noPageErrors(t)
}
