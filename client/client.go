package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/go-resty/resty/v2"
)

// Options configure a Client. Server is required; the rest have defaults.
type Options struct {
	// Server is the server's base address, such as http://127.0.0.1:2283.
	// A trailing slash or /api is ignored.
	Server string
	// APIKey authenticates every request with an API key (apikey_…).
	APIKey string
	// Session authenticates with a first-party session whose tokens are
	// refreshed when they expire or are refused. At most one of APIKey and
	// Session; neither leaves the client anonymous (health, sign-in).
	Session TokenStore
	// HTTPClient carries the requests; nil uses one with connection
	// timeouts but no overall timeout (uploads and downloads take long).
	HTTPClient *http.Client
	// UserAgent names the caller, "photoctl/v1.2.3" say.
	UserAgent string
	// Retry is the retry policy; nil is DefaultRetryPolicy.
	Retry *RetryPolicy
	// Sleep waits between retries; nil waits on a timer. Tests replace it.
	Sleep func(ctx context.Context, d time.Duration) error
	// Now is the clock that decides when an access token has expired.
	Now func() time.Time
}

// Client talks to one photoctl server with one credential. It is safe for
// concurrent use.
type Client struct {
	server  string
	rest    *resty.Client
	apiKey  string
	session TokenStore
	retry   RetryPolicy
	sleep   func(context.Context, time.Duration) error
	now     func() time.Time
}

// refreshMargin is how long before its expiry an access token is renewed,
// so that a long upload does not start with a token about to lapse.
const refreshMargin = 30 * time.Second

// New returns a client for opts.Server.
func New(opts Options) (*Client, error) {
	server, err := NormalizeServer(opts.Server)
	if err != nil {
		return nil, err
	}
	if opts.APIKey != "" && opts.Session != nil {
		return nil, errors.New("new client: give an API key or a session, not both")
	}
	hc := opts.HTTPClient
	if hc == nil {
		hc = &http.Client{Transport: newTransport()}
	}
	c := &Client{server: server, apiKey: opts.APIKey, session: opts.Session, retry: DefaultRetryPolicy,
		sleep: opts.Sleep, now: opts.Now}
	if opts.Retry != nil {
		c.retry = *opts.Retry
	}
	if c.sleep == nil {
		c.sleep = sleepContext
	}
	if c.now == nil {
		c.now = time.Now
	}
	c.rest = resty.NewWithClient(hc).
		SetBaseURL(server).
		SetRetryCount(0). // retries are done in do, which can replay a streamed body
		SetLogger(quietLogger{}).
		SetPreRequestHook(setContentLength).
		SetHeader("Accept", "application/json")
	if opts.UserAgent != "" {
		c.rest.SetHeader("User-Agent", opts.UserAgent)
	}
	return c, nil
}

// Server returns the normalized base address the client talks to.
func (c *Client) Server() string { return c.server }

// NormalizeServer checks a server address and returns it without a
// trailing slash or /api: "localhost:2283" is refused (no scheme).
func NormalizeServer(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", errors.New("no server address")
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("server address %q: want http://HOST[:PORT] or https://HOST[:PORT]", s)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("server address %q: no query or fragment, please", s)
	}
	u.Path = strings.TrimSuffix(strings.TrimRight(u.Path, "/"), "/api")
	return strings.TrimRight(u.String(), "/"), nil
}

// newTransport is http.DefaultTransport's setup with enough idle
// connections per host for parallel uploads (the default keeps 2).
func newTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.DialContext = (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext
	t.MaxIdleConns = 64
	t.MaxIdleConnsPerHost = 64
	t.ResponseHeaderTimeout = 5 * time.Minute
	return t
}

// call is one operation: what to send and what to decode.
type call struct {
	method, path string
	query        url.Values
	header       map[string]string
	// body is marshalled to JSON.
	body any
	// stream opens a fresh streamed body for each attempt (uploads), of
	// length bytes (-1 if unknown); done runs after the attempt and returns
	// the error reading the source failed with, if any (never retried).
	stream func() (body io.Reader, contentType string, length int64, done func() error, err error)
	// out receives a 2xx JSON body.
	out any
	// raw returns the 2xx response with its body unread (downloads); the
	// caller closes it.
	raw bool
	// anonymous sends no credential (sign-in, refresh).
	anonymous bool
	// idempotent requests are repeated after a failed connection too.
	idempotent bool
}

// do runs cl: it authenticates, retries 429/503 (and, if idempotent,
// failed connections) as the policy says, refreshes a refused session once,
// and turns failures into *APIError.
func (c *Client) do(ctx context.Context, cl *call) (*resty.Response, error) {
	refreshed := false
	for attempt := 0; ; attempt++ {
		req := c.rest.R().SetContext(ctx)
		var used Tokens
		if !cl.anonymous {
			auth, tokens, err := c.authorization(ctx)
			if err != nil {
				return nil, err
			}
			used = tokens
			if auth != "" {
				req.SetHeader("Authorization", auth)
			}
		}
		if cl.query != nil {
			req.SetQueryParamsFromValues(cl.query)
		}
		req.SetHeaders(cl.header)
		done := func() error { return nil }
		switch {
		case cl.stream != nil:
			body, contentType, length, closeBody, err := cl.stream()
			if err != nil {
				return nil, err
			}
			done = closeBody
			req.SetHeader("Content-Type", contentType).SetBody(body)
			if length >= 0 {
				req.SetHeader(bodyLengthHeader, strconv.FormatInt(length, 10))
			}
		case cl.body != nil:
			req.SetHeader("Content-Type", "application/json").SetBody(cl.body)
		}
		if cl.raw {
			req.SetDoNotParseResponse(true)
		} else if cl.out != nil {
			req.SetResult(cl.out)
		}
		resp, err := req.Execute(cl.method, cl.path)
		sourceErr := done()
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if sourceErr != nil {
				return nil, fmt.Errorf("%s %s: %w", cl.method, cl.path, sourceErr)
			}
			if d, ok := c.retry.delay(attempt, 0); ok && cl.idempotent {
				if err := c.sleep(ctx, d); err != nil {
					return nil, err
				}
				continue
			}
			return nil, fmt.Errorf("%s %s: %w", cl.method, cl.path, err)
		}
		status := resp.StatusCode()
		if status < 400 {
			return resp, nil
		}
		apiErr := newAPIError(cl.method, cl.path, status, resp.Header(), errorBodyOf(resp, cl.raw))
		if status == http.StatusUnauthorized && c.session != nil && !cl.anonymous && !refreshed {
			refreshed = true
			if _, err := c.rotate(ctx, used); err != nil {
				return nil, err
			}
			attempt-- // a refresh is not a retry
			continue
		}
		if retryable(status) {
			if d, ok := c.retry.delay(attempt, apiErr.RetryAfter); ok {
				if err := c.sleep(ctx, d); err != nil {
					return nil, err
				}
				continue
			}
		}
		return nil, apiErr
	}
}

// errorBodyOf returns the body of a failed response, reading and closing
// it when resty left it unread.
func errorBodyOf(resp *resty.Response, raw bool) []byte {
	if !raw {
		return resp.Body()
	}
	body := resp.RawBody()
	defer body.Close()
	b, _ := io.ReadAll(io.LimitReader(body, 1<<20))
	return b
}

// authorization returns the Authorization header to send and, for a
// session, the tokens it carries (renewed first when about to expire).
func (c *Client) authorization(ctx context.Context) (string, Tokens, error) {
	switch {
	case c.apiKey != "":
		return "Bearer " + c.apiKey, Tokens{}, nil
	case c.session != nil:
		t, err := c.session.Tokens()
		if err != nil {
			return "", Tokens{}, fmt.Errorf("read session tokens: %w", err)
		}
		if t.RefreshToken != "" && !t.ExpiresAt.IsZero() && c.now().After(t.ExpiresAt.Add(-refreshMargin)) {
			if t, err = c.rotate(ctx, t); err != nil {
				return "", Tokens{}, err
			}
		}
		if t.AccessToken == "" {
			return "", Tokens{}, ErrNotSignedIn
		}
		return "Bearer " + t.AccessToken, t, nil
	default:
		return "", Tokens{}, nil
	}
}

// bodyLengthHeader carries the length of a streamed body from do to
// setContentLength; it never leaves the process.
const bodyLengthHeader = "X-Photoctl-Body-Length"

// setContentLength gives a streamed body its Content-Length. net/http
// only knows the length of in-memory bodies and would send the others
// chunked; a known length lets the server refuse an oversized upload before
// reading it and frame the body exactly.
func setContentLength(_ *resty.Client, r *http.Request) error {
	v := r.Header.Get(bodyLengthHeader)
	if v == "" {
		return nil
	}
	r.Header.Del(bodyLengthHeader)
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return fmt.Errorf("body length %q: %w", v, err)
	}
	r.ContentLength = n
	return nil
}

// quietLogger drops resty's own log lines; errors reach the caller as
// values.
type quietLogger struct{}

func (quietLogger) Errorf(string, ...any) {}
func (quietLogger) Warnf(string, ...any)  {}
func (quietLogger) Debugf(string, ...any) {}
