package blob

import (
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strings"
)

// ErrBadKey is wrapped by every error about a key that breaks the key rules
// of Store. A bad key is a bug or an attack: it is rejected before any
// file-system call is made, and it is deliberately not an error kind of
// catalog, so that it ends up as a 500 and in the log rather than as a 4xx.
var ErrBadKey = errors.New("bad blob key")

// MaxKeyLen is the longest key Store accepts, in bytes.
const MaxKeyLen = 255

// blobsDir and tmpDir are the two directories under a store's root.
const (
	blobsDir = "blobs"
	tmpDir   = "tmp"
)

// checkKey enforces the key rules: 1–255 bytes, slash-separated segments made
// only of [a-z0-9_.-], no empty segment and no segment that starts with a dot
// (which rules out "." and ".." and hidden files). Anything else — a leading
// slash, a backslash, a NUL byte, a Unicode look-alike dot — fails the byte
// check, so no later step ever sees it.
func checkKey(key string) error {
	if len(key) == 0 || len(key) > MaxKeyLen {
		return badKey(key, fmt.Sprintf("length %d is not within 1..%d", len(key), MaxKeyLen))
	}
	for seg := range strings.SplitSeq(key, "/") {
		if seg == "" {
			return badKey(key, "empty segment")
		}
		if seg[0] == '.' {
			return badKey(key, "segment starts with a dot")
		}
		for i := 0; i < len(seg); i++ {
			if !keyByte(seg[i]) {
				return badKey(key, fmt.Sprintf("byte %#x is not one of [a-z0-9_.-]", seg[i]))
			}
		}
	}
	// The byte rules already guarantee this; it is kept as a second lock in
	// case they are ever loosened.
	if !filepath.IsLocal(key) {
		return badKey(key, "not a local path")
	}
	return nil
}

func keyByte(c byte) bool {
	return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_' || c == '.' || c == '-'
}

// badKey builds an ErrBadKey error. The key is quoted and cut short, since
// it may be hostile (control bytes, megabytes of it).
func badKey(key, why string) error {
	const show = 64
	if len(key) > show {
		key = key[:show] + "…"
	}
	return fmt.Errorf("%w %q: %s", ErrBadKey, key, why)
}

// rel turns a checked key into a path relative to the store root, and
// verifies with filepath.Rel that it stays inside blobs/.
func rel(key string) (string, error) {
	p := path.Join(blobsDir, key)
	r, err := filepath.Rel(blobsDir, filepath.FromSlash(p))
	if err != nil || !filepath.IsLocal(r) {
		return "", badKey(key, "resolves outside the store")
	}
	return p, nil
}

// resolve checks key and returns its path relative to the store root.
func resolve(key string) (string, error) {
	if err := checkKey(key); err != nil {
		return "", err
	}
	return rel(key)
}
