// Package catalog holds photoctl's domain types, identifiers, error kinds and
// pure rules. It performs no I/O and imports nothing from the rest of the
// server, so every other package can depend on it.
package catalog

import (
	"crypto/rand"
	"strings"
	"sync"
	"time"

	"github.com/oklog/ulid/v2"
)

// Identifier prefixes, as fixed by decisions.md. An id is a prefix followed by
// a ULID, so ids sort by creation time and are safe in URLs.
const (
	PrefixAsset      = "asset_"
	PrefixAlbum      = "album_"
	PrefixAlbumAsset = "album_asset_"
	PrefixPerson     = "person_"
	PrefixFace       = "face_"
	PrefixStack      = "stack_"
	PrefixLibrary    = "lib_"
	PrefixUser       = "intuser_"
	PrefixInvitation = "inv_"
	PrefixAPIKey     = "key_"
	PrefixTask       = "task_"
	PrefixEvent      = "evt_"
	PrefixVersion    = "ver_"
	PrefixSession    = "sess_"
	PrefixRefresh    = "rt_"
)

var (
	entropyMu sync.Mutex
	// Monotonic entropy keeps ids generated within one millisecond strictly
	// increasing, which the event feed relies on.
	entropy = ulid.Monotonic(rand.Reader, 0)
)

// NewID returns prefix followed by a new ULID for the time t. Ids made by one
// process are strictly increasing.
func NewID(prefix string, t time.Time) string {
	entropyMu.Lock()
	defer entropyMu.Unlock()
	id, err := ulid.New(ulid.Timestamp(t), entropy)
	if err != nil {
		// Monotonic entropy overflows only after 2^80 ids in one millisecond;
		// fall back to a fresh reader rather than failing the caller.
		id = ulid.MustNew(ulid.Timestamp(t), rand.Reader)
	}
	return prefix + strings.ToLower(id.String())
}

// HasPrefix reports whether id is a well-formed identifier of the given kind:
// the prefix followed by a 26-character ULID.
func HasPrefix(id, prefix string) bool {
	if !strings.HasPrefix(id, prefix) {
		return false
	}
	_, err := ulid.ParseStrict(strings.ToUpper(id[len(prefix):]))
	return err == nil
}

// IDAfter returns an id of the given prefix for time t that sorts after
// prev (an id of the same prefix, or ""): NewID(prefix, t) when that does,
// else prev's ULID plus one. Sequences whose ids must follow commit order
// (the event feed) draw their ids with it inside the write transaction.
func IDAfter(prefix string, t time.Time, prev string) string {
	id := NewID(prefix, t)
	if prev == "" || id > prev || !HasPrefix(prev, prefix) {
		return id
	}
	u, err := ulid.ParseStrict(strings.ToUpper(prev[len(prefix):]))
	if err != nil {
		return id
	}
	// Add one to the 128-bit value (entropy first, carrying into the time).
	for i := len(u) - 1; i >= 0; i-- {
		u[i]++
		if u[i] != 0 {
			break
		}
	}
	return prefix + strings.ToLower(u.String())
}
