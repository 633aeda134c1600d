package auth

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"time"
)

// CSRFToken is the anti-forgery token of a first-party session: an HMAC
// of the session id under the service's signing key. It is the same for
// the session's whole life (refreshes keep the session id), needs no
// storage, and a page of another origin cannot compute it. The gallery
// puts it in its pages; a request authenticated by the session cookie must
// send it back (X-CSRF-Token, or the form's csrf_token field).
func (s *Service) CSRFToken(sessionID string) string {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte("csrf\x00" + sessionID))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// CheckCSRF reports whether token is sessionID's anti-forgery token, in
// constant time.
func (s *Service) CheckCSRF(sessionID, token string) bool {
	if sessionID == "" || token == "" {
		return false
	}
	return hmac.Equal([]byte(s.CSRFToken(sessionID)), []byte(token))
}

// SessionTTL is how long a session lasts without signing in again (its
// refresh tokens' lifetime): the gallery's refresh cookie lives as long.
func (s *Service) SessionTTL() time.Duration { return s.cfg.RefreshTTL }
