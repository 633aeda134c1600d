package cmdutil

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/client"
)

// APIConn is a client for the server a command talks to, and where its
// server and credential came from.
type APIConn struct {
	*client.Client
	// Profile is the profile used, "" when the credential came from
	// --api-key/$PHOTOCTL_API_KEY or there is none.
	Profile string
	// Credential is "api_key", "session" or "none".
	Credential string
	// Library is the configured library ($PHOTOCTL_LIBRARY or the config
	// file's library key, an id or a name) and LibraryFromEnv whether the
	// environment set it; see ResolveLibrary.
	Library        string
	LibraryFromEnv bool
	// keyDigest tells one API key from another without holding it (the
	// completion cache is kept per credential); "" for a session.
	keyDigest string
}

// ErrNoServer is a usage error: nothing names the server.
var ErrNoServer = errors.New("no server: sign in with 'photoctl login --server URL', or set --server or $PHOTOCTL_SERVER")

// Connect builds the client of a command from the configuration layers and
// the credentials file. The server is --server/$PHOTOCTL_SERVER/the config
// file, else the profile's; the credential is --api-key/$PHOTOCTL_API_KEY,
// else the profile's (only when the profile is for that same server, so a
// token never goes to another server). With needAuth, having no credential
// is an authentication error (exit 4) rather than a 401 later.
func Connect(c *cli.Context, needAuth bool) (*APIConn, error) {
	cfg, err := LoadClientConfig(c)
	if err != nil {
		return nil, err
	}
	store, err := NewCredentialsStore()
	if err != nil {
		return nil, err
	}
	file, err := store.Load()
	if err != nil {
		return nil, err
	}
	name := cfg.Profile
	if name == "" {
		name = file.Current
	}
	if name == "" {
		name = DefaultProfile
	}
	prof := file.Profiles[name]
	if prof == nil && cfg.Profile != "" {
		return nil, &UsageError{Err: fmt.Errorf("no profile %q: sign in with 'photoctl login --profile %s --server URL'", cfg.Profile, cfg.Profile)}
	}

	server := cfg.Server
	if server == "" && prof != nil {
		server = prof.Server
	}
	if server == "" {
		return nil, &UsageError{Err: ErrNoServer}
	}
	if server, err = client.NormalizeServer(server); err != nil {
		return nil, &UsageError{Err: err}
	}
	opts := client.Options{Server: server, UserAgent: "photoctl/" + Version}
	conn := &APIConn{Credential: "none", Library: cfg.Library, LibraryFromEnv: cfg.LibraryFromEnv}
	switch {
	case cfg.APIKey != "":
		opts.APIKey = string(cfg.APIKey)
		conn.Credential = "api_key"
		conn.keyDigest = apiKeyDigest(string(cfg.APIKey))
	case prof != nil && sameServer(prof.Server, server):
		conn.Profile = name
		switch {
		case prof.APIKey != "":
			opts.APIKey = prof.APIKey
			conn.Credential = "api_key"
		case prof.Session != nil:
			opts.Session = &profileTokens{store: store, name: name, cur: *prof.Session}
			conn.Credential = "session"
		}
	}
	if needAuth && conn.Credential == "none" {
		return nil, fmt.Errorf("not signed in to %s: run 'photoctl login --server %s', or set $PHOTOCTL_API_KEY: %w",
			server, server, client.ErrUnauthenticated)
	}
	conn.Client, err = client.New(opts)
	if err != nil {
		return nil, &UsageError{Err: err}
	}
	return conn, nil
}

// apiKeyDigest is a short digest of an API key: enough to tell keys
// apart, nothing that signs in.
func apiKeyDigest(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:8])
}

func sameServer(a, b string) bool {
	na, errA := client.NormalizeServer(a)
	nb, errB := client.NormalizeServer(b)
	return errA == nil && errB == nil && na == nb
}
