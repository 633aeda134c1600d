package client_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/server/servertest"
)

func TestSessionClientReadsTheUser(t *testing.T) {
	s := servertest.Start(t)
	c, _, u := sessionClient(t, s)
	me, err := c.Me(context.Background())
	require.NoError(t, err)
	require.Equal(t, u.ID, me.ID)
}

func TestAPIKeyClientReadsTheUser(t *testing.T) {
	s := servertest.Start(t)
	u, session := s.Session()
	key := s.CreateKey(session, []string{"user.read"}, nil)
	c := newClient(t, client.Options{Server: s.URL, APIKey: key})
	me, err := c.Me(context.Background())
	require.NoError(t, err)
	require.Equal(t, u.ID, me.ID)
}

func TestWrongPasswordIsUnauthenticated(t *testing.T) {
	s := servertest.Start(t)
	u := s.CreateUser()
	c := newClient(t, client.Options{Server: s.URL})
	_, _, err := c.Login(context.Background(), u.Email, "wrong")
	require.ErrorIs(t, err, client.ErrUnauthenticated)
	var apiErr *client.APIError
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, 401, apiErr.Status)
	require.NotEmpty(t, apiErr.Detail)
}

func TestExpiredAccessTokenIsRefreshedOnceAndRetried(t *testing.T) {
	s := servertest.Start(t)
	c, store, _ := sessionClient(t, s)
	before, err := store.Tokens()
	require.NoError(t, err)

	// The client does not know the expiry (no clock), so the server's 401
	// is what triggers the refresh.
	s.Clock.Advance(16 * time.Minute)
	_, err = c.Me(context.Background())
	require.NoError(t, err)
	after, err := store.Tokens()
	require.NoError(t, err)
	require.NotEqual(t, before.AccessToken, after.AccessToken)
	require.NotEqual(t, before.RefreshToken, after.RefreshToken, "refresh tokens rotate")
}

func TestTokenAboutToExpireIsRenewedBeforeTheRequest(t *testing.T) {
	s := servertest.Start(t)
	c, store, _ := sessionClient(t, s, func(o *client.Options) { o.Now = s.Clock.Now })
	before, _ := store.Tokens()
	require.False(t, before.ExpiresAt.IsZero())

	s.Clock.Advance(15*time.Minute - 10*time.Second) // inside the refresh margin
	_, err := c.Me(context.Background())
	require.NoError(t, err)
	after, _ := store.Tokens()
	require.NotEqual(t, before.RefreshToken, after.RefreshToken)
}

func TestConcurrentRequestsWithAnExpiredTokenRefreshOnce(t *testing.T) {
	s := servertest.Start(t)
	c, store, _ := sessionClient(t, s)
	s.Clock.Advance(16 * time.Minute)

	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := c.Me(context.Background())
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	// Had a rotated refresh token been presented twice, the server would
	// have revoked the session and this would fail.
	_, err := c.Me(context.Background())
	require.NoError(t, err)
	tok, _ := store.Tokens()
	require.NotEmpty(t, tok.AccessToken)
}

func TestLogoutEndsTheSessionAndRefreshCannotRevive(t *testing.T) {
	s := servertest.Start(t)
	c, _, _ := sessionClient(t, s)
	require.NoError(t, c.Logout(context.Background()))
	_, err := c.Me(context.Background())
	require.ErrorIs(t, err, client.ErrUnauthenticated)
	require.ErrorContains(t, err, "sign in again")
}

func TestEmptySessionIsNotSignedIn(t *testing.T) {
	s := servertest.Start(t)
	c := newClient(t, client.Options{Server: s.URL, Session: client.NewMemoryTokens(client.Tokens{})})
	require.NoError(t, c.Ping(context.Background()), "anonymous calls need no token")
	_, err := c.Me(context.Background())
	require.ErrorIs(t, err, client.ErrNotSignedIn)
	require.ErrorIs(t, err, client.ErrUnauthenticated)
}
