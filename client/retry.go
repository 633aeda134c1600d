package client

import (
	"context"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// RetryPolicy says how a Client retries a request the server refused for
// now: 429 (rate limited) and 503 (unavailable), and, for requests that are
// safe to repeat, a failed connection.
type RetryPolicy struct {
	// MaxRetries is how many times one request is repeated; 0 disables
	// retries.
	MaxRetries int
	// BaseDelay is the first backoff when the server names no Retry-After;
	// it doubles on each retry, with jitter, up to MaxDelay.
	BaseDelay time.Duration
	MaxDelay  time.Duration
	// MaxRetryAfter bounds how long the client waits when the server asks
	// for a Retry-After; a longer wait returns the error instead.
	MaxRetryAfter time.Duration
}

// DefaultRetryPolicy retries five times, from 250 ms up to 30 s apart, and
// honours a Retry-After of up to two minutes.
var DefaultRetryPolicy = RetryPolicy{MaxRetries: 5, BaseDelay: 250 * time.Millisecond,
	MaxDelay: 30 * time.Second, MaxRetryAfter: 2 * time.Minute}

// delay returns how long to wait before retry number attempt (0-based)
// after an answer that asked for retryAfter (zero if it did not): at least
// retryAfter, with jitter; else an exponential backoff with jitter. False
// when the request should not be retried.
func (p RetryPolicy) delay(attempt int, retryAfter time.Duration) (time.Duration, bool) {
	if attempt >= p.MaxRetries {
		return 0, false
	}
	if retryAfter > 0 {
		if p.MaxRetryAfter > 0 && retryAfter > p.MaxRetryAfter {
			return 0, false
		}
		// At least what the server asked, plus up to a quarter more (and
		// 100 ms), so that clients refused together come back spread out.
		return retryAfter + rand.N(retryAfter/4+100*time.Millisecond), true
	}
	d := p.BaseDelay << attempt
	if d <= 0 || (p.MaxDelay > 0 && d > p.MaxDelay) {
		d = p.MaxDelay
	}
	// Full jitter on the upper half, so that clients refused together do
	// not come back together.
	half := d / 2
	if half > 0 {
		d = half + rand.N(half)
	}
	return d, true
}

// retryable reports whether a status asks the client to come back later.
func retryable(status int) bool {
	return status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable
}

// parseRetryAfter reads a Retry-After header: integer seconds (what the
// photoctl server sends) or an HTTP date. Anything else is zero.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if n, err := strconv.Atoi(v); err == nil {
		if n < 0 {
			return 0
		}
		return time.Duration(n) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// sleepContext waits d or until ctx ends.
func sleepContext(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
