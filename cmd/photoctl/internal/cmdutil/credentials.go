package cmdutil

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/google/renameio/v2"

	"github.com/photoctl/photoctl/client"
)

// CredentialsFileName is the file below $XDG_CONFIG_HOME/photoctl that
// holds the profiles: a server each, and the credential signed in there.
// It is written with mode 0600 in a 0700 folder.
const CredentialsFileName = "credentials.json"

// DefaultProfile is the profile used when none is named or current.
const DefaultProfile = "default"

// Profile is one server and the credential to use there.
type Profile struct {
	Server string `json:"server"`
	Email  string `json:"email,omitempty"`
	UserID string `json:"user_id,omitempty"`
	// One of APIKey and Session, or neither when signed out.
	APIKey  string         `json:"api_key,omitempty"`
	Session *client.Tokens `json:"session,omitempty"`
	// Library is the default library (photoctl libraries switch): commands
	// that follow the library selection rule send it when --library is
	// left out.
	Library string `json:"library,omitempty"`
}

// CredentialKind names the credential of p for humans and --json.
func (p *Profile) CredentialKind() string {
	switch {
	case p.APIKey != "":
		return "api_key"
	case p.Session != nil && p.Session.RefreshToken != "":
		return "session"
	default:
		return "none"
	}
}

// CredentialsFile is the content of the credentials file.
type CredentialsFile struct {
	Current  string              `json:"current,omitempty"`
	Profiles map[string]*Profile `json:"profiles"`
}

// CredentialsStore reads and writes the credentials file. Every change
// happens under an exclusive lock on a lock file beside it and replaces
// the file atomically, so concurrent photoctl processes (an upload and a
// listing, say) neither lose each other's writes nor read half a file.
type CredentialsStore struct {
	path string
	mu   sync.Mutex // serialises this process's own updates
}

// NewCredentialsStore returns the store in the XDG config folder.
func NewCredentialsStore() (*CredentialsStore, error) {
	dir := XDGDir("XDG_CONFIG_HOME", ".config")
	if dir == "" {
		return nil, errors.New("no home folder for the credentials file; set XDG_CONFIG_HOME")
	}
	return &CredentialsStore{path: filepath.Join(dir, "photoctl", CredentialsFileName)}, nil
}

// Load reads the file; a missing file is an empty one.
func (s *CredentialsStore) Load() (*CredentialsFile, error) {
	data, err := os.ReadFile(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return &CredentialsFile{Profiles: map[string]*Profile{}}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read credentials: %w", err)
	}
	var p CredentialsFile
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, fmt.Errorf("read credentials %s: %w", s.path, err)
	}
	if p.Profiles == nil {
		p.Profiles = map[string]*Profile{}
	}
	return &p, nil
}

// Update applies fn to the current content under the lock and saves the
// result. fn may return errSkipSave to change nothing.
func (s *CredentialsStore) Update(fn func(*CredentialsFile) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := os.MkdirAll(filepath.Dir(s.path), 0o700); err != nil {
		return fmt.Errorf("create credentials folder: %w", err)
	}
	unlock, err := lockFile(s.path + ".lock")
	if err != nil {
		return fmt.Errorf("lock credentials: %w", err)
	}
	defer unlock()
	p, err := s.Load()
	if err != nil {
		return err
	}
	if err := fn(p); err != nil {
		if errors.Is(err, errSkipSave) {
			return nil
		}
		return err
	}
	return s.save(p)
}

// errSkipSave tells Update that fn changed nothing.
var errSkipSave = errors.New("nothing to save")

func (s *CredentialsStore) save(p *CredentialsFile) error {
	data, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return err
	}
	if err := writePrivateFile(s.path, append(data, '\n')); err != nil {
		return fmt.Errorf("write credentials: %w", err)
	}
	return nil
}

// writePrivateFile replaces path by data atomically (a temporary file
// beside it, fsync, rename), readable by the owner only, whatever mode the
// file it replaces had.
func writePrivateFile(path string, data []byte) error {
	f, err := renameio.NewPendingFile(path, renameio.WithPermissions(0o600))
	if err != nil {
		return err
	}
	defer f.Cleanup() // after the rename, nothing is left to remove
	if _, err := f.Write(data); err != nil {
		return err
	}
	return f.CloseAtomicallyReplace()
}

// Names returns the profile names in order.
func (p *CredentialsFile) Names() []string {
	var out []string
	for name := range p.Profiles {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

// profileTokens is the client.TokenStore of one profile's session. A
// refresh re-reads the file under its lock first: if another photoctl
// process already rotated the tokens, those are used instead of spending
// the same refresh token twice (which would end the session).
type profileTokens struct {
	store *CredentialsStore
	name  string
	mu    sync.Mutex
	cur   client.Tokens
}

// Tokens returns the tokens this process last saw.
func (t *profileTokens) Tokens() (client.Tokens, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.cur, nil
}

// Rotate implements client.TokenStore.
func (t *profileTokens) Rotate(ctx context.Context, stale client.Tokens,
	refresh func(context.Context, client.Tokens) (client.Tokens, error)) (client.Tokens, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	err := t.store.Update(func(p *CredentialsFile) error {
		prof := p.Profiles[t.name]
		if prof == nil || prof.Session == nil {
			return client.ErrNotSignedIn
		}
		if prof.Session.AccessToken != stale.AccessToken {
			t.cur = *prof.Session // rotated by another process meanwhile
			return errSkipSave
		}
		fresh, err := refresh(ctx, *prof.Session)
		if err != nil {
			return err
		}
		prof.Session = &fresh
		t.cur = fresh
		return nil
	})
	if err != nil {
		return client.Tokens{}, err
	}
	return t.cur, nil
}
