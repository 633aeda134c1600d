package httpapi_test

import (
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/servertest"
)

// fiveThenOneEvery2s limits each user to a burst of five requests, then
// one every 2 s, refused at once (no waiting in the queue): the bucket alone.
func fiveThenOneEvery2s(c *app.Config) {
	c.RateLimit.Enabled = true
	c.RateLimit.Rate = 0.5
	c.RateLimit.Burst = 5
	c.RateLimit.LoginBurst = 100
	c.RateLimit.MaxWait = 0
}

func TestRateLimitPerUser(t *testing.T) {
	s := servertest.Start(t, fiveThenOneEvery2s)
	_, alice := s.Session()
	_, bob := s.Session()

	for i := range 5 {
		require.Equal(t, http.StatusOK, s.Do("GET", "/api/users/me", alice, nil).Status, "request %d", i)
	}
	r := s.Do("GET", "/api/users/me", alice, nil)
	requireDetail(t, r, http.StatusTooManyRequests)
	retry, err := strconv.Atoi(r.Header.Get("Retry-After"))
	require.NoError(t, err, "Retry-After is an integer: %q", r.Header.Get("Retry-After"))
	require.GreaterOrEqual(t, retry, 1)
	require.LessOrEqual(t, retry, 2)

	// Another user is unaffected, and the same user's API keys share the bucket.
	require.Equal(t, http.StatusOK, s.Do("GET", "/api/users/me", bob, nil).Status)

	// After waiting as told, the request passes.
	s.Clock.Advance(time.Duration(retry) * time.Second)
	require.Equal(t, http.StatusOK, s.Do("GET", "/api/users/me", alice, nil).Status)
}

// A user over the limit is refused before their credential is checked
// again (a flood costs no authentication), but a request the limiter would
// admit is always authenticated in full: a key revoked meanwhile is 429
// while its user is over the limit, then 401.
func TestAUserOverTheLimitIsRefusedBeforeAuthentication(t *testing.T) {
	s := servertest.Start(t, fiveThenOneEvery2s)
	_, alice := s.Session()
	key := s.CreateKey(alice, []string{"all"}, nil)                        // 1 token
	keys := servertest.List[api.APIKey](s, alice, "/api/api-keys?limit=1") // 2
	require.Len(t, keys, 1)
	for i := range 2 { // 3, 4
		require.Equal(t, http.StatusOK, s.Do("GET", "/api/users/me", key, nil).Status, "request %d", i)
	}
	require.Equal(t, http.StatusNoContent, s.Do("DELETE", "/api/api-keys/"+keys[0].ID, alice, nil).Status) // 5

	r := s.Do("GET", "/api/users/me", key, nil)
	requireDetail(t, r, http.StatusTooManyRequests)
	require.Equal(t, "2", r.Header.Get("Retry-After"))

	s.Clock.Advance(2 * time.Second)
	requireDetail(t, s.Do("GET", "/api/users/me", key, nil), http.StatusUnauthorized)
	require.Equal(t, http.StatusOK, s.Do("GET", "/api/users/me", alice, nil).Status, "the failed request charged nothing")
}

func TestSignInIsRateLimitedPerAddress(t *testing.T) {
	s := servertest.Start(t, func(c *app.Config) {
		c.RateLimit.Enabled = true
		c.RateLimit.LoginRate = 0.1
		c.RateLimit.LoginBurst = 3
	})
	u := s.CreateUser()
	bad := api.LoginRequest{Email: u.Email, Password: "guess-guess"}
	for range 3 {
		require.Equal(t, http.StatusUnauthorized, s.Do("POST", "/api/auth/login", "", bad).Status)
	}
	r := s.Do("POST", "/api/auth/login", "", api.LoginRequest{Email: u.Email, Password: u.Password})
	requireDetail(t, r, http.StatusTooManyRequests)
	require.NotEmpty(t, r.Header.Get("Retry-After"))
}
