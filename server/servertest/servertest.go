// Package servertest starts a real photoctl server (the fiber app over a
// fresh SQLite file, or a fresh PostgreSQL database with
// PHOTOCTL_TEST_STORE=postgres, on a loopback port) for tests, and gives
// them an HTTP client with helpers for users, sessions and API keys.
package servertest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/auth"
	"github.com/photoctl/photoctl/server/blob/s3test"
)

// Clock is a controllable clock: real time plus an offset tests can move,
// or, once frozen, a fixed instant that only Advance moves.
type Clock struct {
	offset atomic.Int64
	frozen atomic.Int64 // Unix nanoseconds of the frozen base; 0 = running
}

// Now returns the current fake time.
func (c *Clock) Now() time.Time {
	base := time.Now()
	if f := c.frozen.Load(); f != 0 {
		base = time.Unix(0, f).UTC()
	}
	return base.Add(time.Duration(c.offset.Load()))
}

// Freeze stops the clock at the next whole second (so instants the test
// computes from Now survive the store's microsecond precision); from then
// on only Advance moves it.
func (c *Clock) Freeze() {
	c.frozen.Store(c.Now().Truncate(time.Second).Add(time.Second).Add(-time.Duration(c.offset.Load())).UnixNano())
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) { c.offset.Add(int64(d)) }

// WithBucket keeps the server's blobs in bucket (under prefix) of svc.
func WithBucket(svc *s3test.Service, bucket, prefix string) func(*app.Config) {
	b := svc.Config(bucket, prefix)
	return func(c *app.Config) {
		c.Storage.S3 = app.S3Config{Endpoint: b.Endpoint, Bucket: b.Bucket, Prefix: b.Prefix, Region: b.Region,
			AccessKeyID: b.AccessKeyID, SecretAccessKey: app.Secret(b.SecretAccessKey), Insecure: b.Insecure}
	}
}

// WithPipeline runs the ingest pipeline in the server (two workers), for
// tests of what it produces.
func WithPipeline(c *app.Config) { c.Workers.Concurrency = 2 }

// Server is a running server under test.
type Server struct {
	T      testing.TB
	URL    string
	Config app.Config
	Clock  *Clock
	app    *app.Server
	http   *http.Client
	mu     sync.Mutex
	nUsers int
}

// Start starts a server with rate limiting off and no ingest workers (tests
// that need either turn it on with configure, e.g. WithPipeline) and stops
// it when the test ends. Each data directory has its own database (store.go),
// so a server started again on another's DataDir (a restart) finds its rows.
// Without workers, uploads queue their ingest tasks
// and nothing changes an asset behind the test's back.
func Start(t testing.TB, configure ...func(*app.Config)) *Server {
	t.Helper()
	cfg := app.Defaults(t.TempDir())
	cfg.Auth.PasswordCost = PasswordCost
	cfg.Listen = "127.0.0.1:0"
	cfg.RateLimit.Enabled = false
	cfg.Workers.Concurrency = 0
	cfg.ShutdownTimeout = 5 * time.Second
	for _, f := range configure {
		f(&cfg)
	}
	useDatabase(t, &cfg) // store.go: PostgreSQL when PHOTOCTL_TEST_STORE=postgres
	clock := &Clock{}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	if testing.Verbose() {
		log = slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	a, err := app.Start(context.Background(), cfg, log, app.WithClock(clock.Now))
	require.NoError(t, err)
	s := &Server{T: t, URL: "http://" + a.Addr(), Config: cfg, Clock: clock, app: a,
		http: &http.Client{Timeout: 30 * time.Second}}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = a.Shutdown(ctx)
	})
	return s
}

// App returns the underlying server, for tests of shutdown.
func (s *Server) App() *app.Server { return s.app }

type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(string(bytes.TrimSpace(p)))
	return len(p), nil
}

// Response is a finished HTTP exchange.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// JSON decodes the body into v, failing the test on error.
func (r *Response) JSON(t testing.TB, v any) {
	t.Helper()
	require.NoError(t, json.Unmarshal(r.Body, v), "body: %s", r.Body)
}

// Expect requires r to have status and decodes its body as a T.
func Expect[T any](t testing.TB, r *Response, status int) T {
	t.Helper()
	require.Equal(t, status, r.Status, "%s", r.Body)
	var v T
	r.JSON(t, &v)
	return v
}

// Map decodes the body as a JSON object.
func (r *Response) Map(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	r.JSON(t, &m)
	return m
}

// Do sends a request. body is marshalled to JSON unless it is a string or
// []byte, which are sent as they are. token, when set, is sent as a bearer.
func (s *Server) Do(method, path, token string, body any) *Response {
	s.T.Helper()
	return s.send(method, path, token, body, nil)
}

// Get sends a GET with the given headers (a Range, a condition).
func (s *Server) Get(path, token string, headers map[string]string) *Response {
	s.T.Helper()
	return s.send("GET", path, token, nil, headers)
}

func (s *Server) send(method, path, token string, body any, headers map[string]string) *Response {
	s.T.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = bytes.NewBufferString(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		data, err := json.Marshal(b)
		require.NoError(s.T, err)
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, s.URL+path, rd)
	require.NoError(s.T, err)
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	return s.RoundTrip(req)
}

// RoundTrip sends req and reads the whole answer.
func (s *Server) RoundTrip(req *http.Request) *Response {
	s.T.Helper()
	resp, err := s.http.Do(req)
	require.NoError(s.T, err)
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	require.NoError(s.T, err)
	return &Response{Status: resp.StatusCode, Header: resp.Header, Body: data}
}

// PasswordCost is the argon2id cost of the harness's accounts: the
// smallest work area instead of 19 MiB, since a test run makes thousands
// of accounts (hashing them at the real cost was a quarter of the HTTP
// tests' CPU). server/auth's own tests hash at the real cost.
var PasswordCost = auth.PasswordCost{MemoryKiB: 64, Passes: 1}

// User is an account made by the harness, with its password.
type User struct {
	ID, Email, Password string
}

// CreateUser makes a new account (and its first library) directly in the
// store. Each call gets a distinct e-mail.
func (s *Server) CreateUser() User {
	s.T.Helper()
	s.mu.Lock()
	s.nUsers++
	n := s.nUsers
	s.mu.Unlock()
	u := User{Email: fmt.Sprintf("user%d@example.com", n), Password: "correct horse battery"}
	created, err := s.app.CreateUser(context.Background(), app.NewUser{Email: u.Email, Password: u.Password,
		FirstName: fmt.Sprintf("User%d", n)})
	require.NoError(s.T, err)
	u.ID = created.ID
	return u
}

// SetActive activates or deactivates a user.
func (s *Server) SetActive(id string, active bool) {
	s.T.Helper()
	require.NoError(s.T, s.app.SetUserActive(context.Background(), id, active))
}

// SetQuota sets a user's storage allowance in bytes.
func (s *Server) SetQuota(id string, quota int64) {
	s.T.Helper()
	require.NoError(s.T, s.app.SetUserQuota(context.Background(), id, &quota))
}

// PurgeTrash runs the trash-retention purge and returns how many assets it
// removed.
func (s *Server) PurgeTrash() int {
	s.T.Helper()
	n, err := s.app.PurgeTrash(context.Background())
	require.NoError(s.T, err)
	return n
}

// Login signs u in and returns the tokens.
func (s *Server) Login(u User) api.TokenResponse {
	s.T.Helper()
	r := s.Do("POST", "/api/auth/login", "", api.LoginRequest{Email: u.Email, Password: u.Password})
	return Expect[api.TokenResponse](s.T, r, http.StatusOK)
}

// Session creates a user and returns it with a first-party access token.
func (s *Server) Session() (User, string) {
	s.T.Helper()
	u := s.CreateUser()
	return u, s.Login(u).AccessToken
}

// CreateKey creates an API key with the given actions and libraries (nil =
// every library) using a session token, and returns its secret.
func (s *Server) CreateKey(session string, actions []string, libraryIDs []string) string {
	s.T.Helper()
	r := s.Do("POST", "/api/api-keys", session, api.APIKeyCreateRequest{Name: "test key",
		Scope: &api.APIKeyScope{Actions: actions, LibraryIDs: libraryIDs}})
	return Expect[api.APIKeyCreated](s.T, r, http.StatusCreated).Secret
}

// List GETs one page of a list endpoint and requires a 200.
func List[T any](s *Server, token, path string) []T {
	s.T.Helper()
	return Expect[api.Page[T]](s.T, s.Do("GET", path, token, nil), http.StatusOK).Data
}

// Libraries lists the caller's libraries.
func (s *Server) Libraries(token string) []api.Library {
	s.T.Helper()
	return List[api.Library](s, token, "/api/libraries?limit=200")
}
