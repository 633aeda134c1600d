package immich

import (
	"encoding/base64"
	"encoding/hex"
	"errors"
)

// sha1Size is the length of a SHA-1 sum in bytes.
const sha1Size = 20

// ErrChecksum reports a checksum that is not a SHA-1 in hex or base64.
var ErrChecksum = errors.New("not a SHA-1 checksum: want 40 hexadecimal digits or 28 base64 characters")

// ParseChecksum reads an Immich checksum into the 20 bytes of a SHA-1: a
// 28-character value is base64 (immich-go), anything else hexadecimal (the
// @immich/cli sends lowercase hex).
func ParseChecksum(s string) ([]byte, error) {
	var sum []byte
	var err error
	if len(s) == base64.StdEncoding.EncodedLen(sha1Size) {
		sum, err = base64.StdEncoding.DecodeString(s)
	} else {
		sum, err = hex.DecodeString(s)
	}
	if err != nil || len(sum) != sha1Size {
		return nil, ErrChecksum
	}
	return sum, nil
}

// FormatChecksum is the answer form of a checksum: base64, as Immich
// stores them (the same bytes as the native checksum_sha1).
func FormatChecksum(sum []byte) string { return base64.StdEncoding.EncodeToString(sum) }
