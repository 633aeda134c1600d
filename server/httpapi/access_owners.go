package httpapi

import (
	"crypto/sha256"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/photoctl/photoctl/server/ratelimit"
)

// credentialOwners remembers which user each recently authenticated
// credential belongs to, so that a user over their rate limit is refused
// before the credential is authenticated again: a flood of requests then
// costs a hash and a map lookup each, not a signature check and two
// database reads, and the user's neighbours keep the CPU. The mapping is
// used only to refuse — a request the limiter would admit is always
// authenticated in full — so a revoked credential gains nothing from it
// (while its user is over the limit it is answered 429 instead of 401).
// Credentials are kept as SHA-256 digests, the most recent ones first.
type credentialOwners struct {
	cache *lru.Cache[[sha256.Size]byte, string]
}

// ownersSize bounds the credentials remembered (about 100 bytes each).
const ownersSize = 8192

func newCredentialOwners() credentialOwners {
	c, err := lru.New[[sha256.Size]byte, string](ownersSize)
	if err != nil {
		panic(err) // only for a size below 1
	}
	return credentialOwners{cache: c}
}

// wait returns how long the owner of the credential in header must wait
// for cost tokens, or 0 when the credential is unknown or may go on.
func (o credentialOwners) wait(l *ratelimit.Limiter, header string, cost float64) time.Duration {
	if l == nil || header == "" {
		return 0
	}
	user, ok := o.cache.Get(sha256.Sum256([]byte(header)))
	if !ok {
		return 0
	}
	return l.Wait("user:"+user, cost)
}

// add records that the credential in header belongs to userID.
func (o credentialOwners) add(header, userID string) {
	if header != "" {
		o.cache.Add(sha256.Sum256([]byte(header)), userID)
	}
}
