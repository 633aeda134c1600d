// Package oidcprovider runs a real OpenID provider on loopback for tests:
// github.com/zitadel/oidc/v3's op (discovery, RS256-signed ID tokens, JWKS,
// the code flow with PKCE verification, userinfo, end_session) over the
// library's own example in-memory storage. Only its login page is the
// test's: it approves, without a form, whichever user the test chose with
// SignInAs.
package oidcprovider

import (
	"context"
	"crypto/sha256"
	"io"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/zitadel/oidc/v3/example/server/storage"
	"github.com/zitadel/oidc/v3/pkg/op"
	"golang.org/x/text/language"
)

// Client credentials the provider accepts. Redirect URIs on loopback with
// any port and path are allowed (RFC 8252 native-app style, which the CLI
// needs: it listens on 127.0.0.1:0).
const (
	ClientID     = "photoctl"
	ClientSecret = "photoctl-test-secret"
)

// User is an account at the provider.
type User struct {
	Subject       string
	Email         string
	EmailVerified bool
	FirstName     string
	LastName      string
}

// Provider is a running OpenID provider.
type Provider struct {
	// Issuer is the provider's issuer URL (http://127.0.0.1:PORT).
	Issuer string

	users   *userStore
	storage *storage.Storage
	op      *op.Provider
	srv     *http.Server
	ln      net.Listener
	mu      sync.Mutex
	current string // subject SignInAs chose
	stopped bool
}

// Start starts a provider on a free loopback port and stops it when the test
// ends.
func Start(t testing.TB) *Provider {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("listen: %v", err)
	}
	return StartOn(t, ln)
}

// StartOn serves a provider on ln (whose address makes the issuer).
func StartOn(t testing.TB, ln net.Listener) *Provider {
	t.Helper()
	issuer := "http://" + ln.Addr().String()
	users := &userStore{users: map[string]*storage.User{}}
	client := storage.WebClient(ClientID, ClientSecret, "http://127.0.0.1/callback")
	st := storage.NewStorageWithClients(users, map[string]*storage.Client{ClientID: client})
	p := &Provider{Issuer: issuer, users: users, storage: st, ln: ln}
	key := sha256.Sum256([]byte("oidcprovider test key"))
	prov, err := op.NewProvider(&op.Config{CryptoKey: key, CryptoKeyId: "key1", CodeMethodS256: true,
		AuthMethodPost: true, DefaultLogoutRedirectURI: "/logged-out", SupportedUILocales: []language.Tag{language.English}},
		loopbackClients{st}, op.StaticIssuer(issuer), op.WithAllowInsecure(),
		op.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	if err != nil {
		t.Fatalf("new provider: %v", err)
	}
	p.op = prov
	mux := http.NewServeMux()
	interceptor := op.NewIssuerInterceptor(prov.IssuerFromRequest)
	mux.Handle("/login/username", interceptor.HandlerFunc(p.login))
	mux.HandleFunc("/logged-out", func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "signed out") })
	mux.Handle("/", prov)
	p.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = p.srv.Serve(ln) }()
	t.Cleanup(p.Stop)
	return p
}

// AddUser creates (or replaces) an account at the provider.
func (p *Provider) AddUser(u User) {
	p.users.add(&storage.User{ID: u.Subject, Username: u.Subject, Password: "provider-password",
		FirstName: u.FirstName, LastName: u.LastName, Email: u.Email, EmailVerified: u.EmailVerified,
		PreferredLanguage: language.English})
}

// SignInAs makes the login page approve the user with this subject for the
// next authorization requests.
func (p *Provider) SignInAs(subject string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.current = subject
}

// Stop stops serving; the port stays closed. Calls after the first do nothing.
func (p *Provider) Stop() {
	p.mu.Lock()
	stopped := p.stopped
	p.stopped = true
	p.mu.Unlock() // the login page takes it: unlocked, Shutdown can drain it
	if stopped {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = p.srv.Shutdown(ctx)
}

// login is the provider's sign-in page: it signs in the chosen user for the
// authorization request and sends the browser on to the provider's
// callback, which redirects to the client with the code.
func (p *Provider) login(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("authRequestID")
	p.mu.Lock()
	subject := p.current
	p.mu.Unlock()
	u := p.users.GetUserByID(subject)
	if u == nil {
		http.Error(w, "no test user chosen (SignInAs)", http.StatusBadRequest)
		return
	}
	if err := p.storage.CheckUsernamePassword(u.Username, u.Password, id); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	http.Redirect(w, r, op.AuthCallbackURL(p.op)(r.Context(), id), http.StatusFound)
}

// userStore is the provider's account list (storage.UserStore).
type userStore struct {
	mu    sync.Mutex
	users map[string]*storage.User
}

func (s *userStore) add(u *storage.User) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.users[u.ID] = u
}

func (s *userStore) GetUserByID(id string) *storage.User {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.users[id]
}

func (s *userStore) GetUserByUsername(name string) *storage.User { return s.GetUserByID(name) }

func (s *userStore) ExampleClientID() string { return storage.ServiceUserID }

// loopbackClients lets the client redirect to any loopback port and path.
type loopbackClients struct{ *storage.Storage }

func (s loopbackClients) GetClientByClientID(ctx context.Context, id string) (op.Client, error) {
	c, err := s.Storage.GetClientByClientID(ctx, id)
	if err != nil {
		return nil, err
	}
	return loopbackClient{c}, nil
}

type loopbackClient struct{ op.Client }

func (loopbackClient) RedirectURIGlobs() []string {
	return []string{"http://127.0.0.1:*/**", "http://localhost:*/**"}
}

func (loopbackClient) PostLogoutRedirectURIGlobs() []string {
	return []string{"http://127.0.0.1:*/**"}
}

var _ op.HasRedirectGlobs = loopbackClient{}
