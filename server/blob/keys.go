package blob

import (
	"errors"
	"fmt"
	"hash/crc32"
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

// Path returns where the blob at key lives in the local store whose root
// is root (root/blobs/originals/3f/asset_x for "originals/asset_x"), or an
// error wrapping ErrBadKey. For tools that read a data directory's files
// without a Store (backups, whose directories share the layout) and for
// tests.
func Path(root, key string) (string, error) {
	p, err := resolve(key)
	if err != nil {
		return "", err
	}
	return filepath.Join(root, filepath.FromSlash(p)), nil
}

// TempDir is the directory of temporary files under root: a crash's
// leftovers there are swept (CleanTemp).
func TempDir(root string) string { return filepath.Join(root, tmpDir) }

// KeyOf is the key of the blob whose file is at p under root, Path's
// inverse; ok is false for a path that is no blob's in this layout
// (outside root's blobs/, or not in the shard directory of its key).
func KeyOf(root, p string) (key string, ok bool) {
	r, err := filepath.Rel(filepath.Join(root, blobsDir), p)
	if err != nil || !filepath.IsLocal(r) {
		return "", false
	}
	key = filepath.ToSlash(r)
	if kind, rest, sharded := strings.Cut(key, "/"); sharded { // else a key of one segment
		sh, rest, _ := strings.Cut(rest, "/")
		if !isShard(sh) {
			return "", false
		}
		key = kind + "/" + rest
	}
	if checkKey(key) != nil || local(key) != filepath.ToSlash(r) {
		return "", false
	}
	return key, true
}

// local is where key lives below blobs/. The first segment stays (a kind:
// originals, variants, ...); the second (an asset's id in every key the
// server makes) goes into one of 256 shard directories named by a hash of
// it: "originals/asset_x" → "originals/3f/asset_x", "variants/asset_x/thumb"
// → "variants/3f/asset_x/thumb". So no directory holds an entry per asset
// (ext4 without large_dir refuses new entries somewhere past ten million),
// and everything of an asset under one kind stays one subtree. A key of one
// segment is not sharded.
func local(key string) string {
	kind, rest, ok := strings.Cut(key, "/")
	if !ok {
		return key
	}
	id, _, _ := strings.Cut(rest, "/")
	return kind + "/" + shard(id) + "/" + rest
}

// shard names the shard directory of a key's second segment: two lowercase
// hex digits, a byte of its CRC-32 (stable across processes and versions).
func shard(seg string) string {
	const hex = "0123456789abcdef"
	b := byte(crc32.ChecksumIEEE([]byte(seg)))
	return string([]byte{hex[b>>4], hex[b&0xf]})
}

// isShard tells whether name (an entry of a kind's directory) is a shard
// directory's name.
func isShard(name string) bool {
	isHex := func(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' }
	return len(name) == 2 && isHex(name[0]) && isHex(name[1])
}

// rel turns a checked key into a path relative to the store root, and
// verifies with filepath.Rel that it stays inside blobs/.
func rel(key string) (string, error) {
	p := path.Join(blobsDir, local(key))
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
