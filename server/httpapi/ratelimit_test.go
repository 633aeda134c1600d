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

func TestRateLimitPerUser(t *testing.T) {
	s := servertest.Start(t, func(c *app.Config) {
		c.RateLimit.Enabled = true
		c.RateLimit.Rate = 0.5 // one token every 2 s
		c.RateLimit.Burst = 5
		c.RateLimit.LoginBurst = 100
	})
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
