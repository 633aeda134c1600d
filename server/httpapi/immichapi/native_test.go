package immichapi_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

// What the Immich tests ask of the native API to set up or check a case.

// eventTypes lists the types of a library's events of one resource, oldest
// first.
func eventTypes(t *testing.T, s *servertest.Server, token, libraryID, resourceID string) []string {
	t.Helper()
	return s.EventTypes(token, libraryID, resourceID)
}

// addMember makes a new user a member of the library with role (through a
// real invitation for one, valid an hour) and returns them with a session.
func addMember(t *testing.T, s *servertest.Server, ownerSession, libraryID, role string) (servertest.User, string) {
	t.Helper()
	u, session := s.Session()
	r := s.Do("POST", "/api/libraries/"+libraryID+"/invitations", ownerSession, map[string]any{"role": role,
		"expires_at": s.Clock.Now().Add(time.Hour).UTC().Format(time.RFC3339Nano), "max_joiners": 1})
	require.Equal(t, http.StatusCreated, r.Status, "invite: %s", r.Body)
	var inv api.InvitationCreated
	r.JSON(t, &inv)
	r = s.Do("POST", "/api/libraries/invitations/join", session, api.InvitationTokenRequest{Token: inv.Token})
	require.Equal(t, http.StatusOK, r.Status, "join: %s", r.Body)
	return u, session
}
