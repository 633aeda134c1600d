package servertest

import (
	"net/http"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
)

// CreateLibrary makes a library of the caller's named name and requires a
// 201 (a new library, not an existing one of that name).
func (s *Server) CreateLibrary(token, name string) api.Library {
	s.T.Helper()
	return Expect[api.Library](s.T, s.Do("POST", "/api/libraries", token, api.LibraryCreateRequest{Name: name}), http.StatusCreated)
}

// AddMember makes a new user a member of the library with role (through a
// real invitation for one, valid an hour) and returns them with a session.
func (s *Server) AddMember(ownerSession, libraryID, role string) (User, string) {
	s.T.Helper()
	u, session := s.Session()
	expires, places := s.Clock.Now().Add(time.Hour).UTC().Format(time.RFC3339Nano), 1
	inv := Expect[api.InvitationCreated](s.T, s.Do("POST", "/api/libraries/"+libraryID+"/invitations", ownerSession,
		api.InvitationCreateRequest{Role: &role, ExpiresAt: &expires, MaxJoiners: &places}), http.StatusCreated)
	r := s.Do("POST", "/api/libraries/invitations/join", session, api.InvitationTokenRequest{Token: inv.Token})
	require.Equal(s.T, http.StatusOK, r.Status, "join: %s", r.Body)
	return u, session
}
