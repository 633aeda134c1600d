package httpapi_test

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

// inviteBody is an invitation create body expiring after d.
func inviteBody(s *servertest.Server, role string, d time.Duration, places int) map[string]any {
	return map[string]any{"role": role, "expires_at": s.Clock.Now().Add(d).UTC().Format(time.RFC3339Nano),
		"max_joiners": places}
}

// invite creates an invitation and requires a 201.
func invite(t *testing.T, s *servertest.Server, session, libraryID string, body map[string]any) api.InvitationCreated {
	t.Helper()
	return servertest.Expect[api.InvitationCreated](t, s.Do("POST", "/api/libraries/"+libraryID+"/invitations", session, body), http.StatusCreated)
}

// join redeems a token.
func join(s *servertest.Server, session, token string) *servertest.Response {
	return s.Do("POST", "/api/libraries/invitations/join", session, api.InvitationTokenRequest{Token: token})
}

// preview reads what a token offers and requires a 200.
func preview(t *testing.T, s *servertest.Server, session, token string) api.InvitationPreview {
	t.Helper()
	r := s.Do("POST", "/api/libraries/invitations/preview", session, api.InvitationTokenRequest{Token: token})
	return servertest.Expect[api.InvitationPreview](t, r, http.StatusOK)
}

// requireCode asserts a SharingErrorResponse: exactly detail and code.
func requireCode(t *testing.T, r *servertest.Response, status int, code string) {
	t.Helper()
	require.Equal(t, status, r.Status, "body: %s", r.Body)
	m := r.Map(t)
	require.Len(t, m, 2, "SharingErrorResponse has detail and code: %s", r.Body)
	require.NotEmpty(t, m["detail"], "%s", r.Body)
	require.Equal(t, code, m["code"], "%s", r.Body)
}

func TestInvitationCreateListAndPreview(t *testing.T) {
	s := servertest.Start(t)
	owner, session := s.Session()
	lib := s.Libraries(session)[0]

	r := s.Do("POST", "/api/libraries/"+lib.ID+"/invitations", session, inviteBody(s, "collaborator", 48*time.Hour, 3))
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	fields := r.Map(t)
	for _, f := range []string{"id", "library_id", "created_by", "role", "expires_at", "max_joiners", "joiner_count",
		"remaining_places", "state", "disabled_at", "created_at", "updated_at", "token"} {
		require.Contains(t, fields, f)
	}
	require.Len(t, fields, 13, "the Invitation fields and the token, nothing else: %s", r.Body)
	var inv api.InvitationCreated
	r.JSON(t, &inv)
	require.Regexp(t, `^inv_[0-9a-z]{26}$`, inv.ID)
	require.True(t, strings.HasPrefix(inv.Token, "invite_"), inv.Token)
	require.Equal(t, lib.ID, inv.LibraryID)
	require.Equal(t, owner.ID, inv.CreatedBy.ID)
	require.Equal(t, "User1", *inv.CreatedBy.DisplayName)
	require.Equal(t, "collaborator", inv.Role)
	require.Equal(t, 3, inv.MaxJoiners)
	require.Zero(t, inv.JoinerCount)
	require.Equal(t, 3, inv.RemainingPlaces)
	require.Equal(t, "active", inv.State)
	require.Nil(t, inv.DisabledAt)

	t.Run("only the token's hash is stored", func(t *testing.T) {
		servertest.SkipOnPostgres(t, "reads the SQLite files (database and WAL) for the token")
		files, err := filepath.Glob(filepath.Join(s.Config.DataDir, "photoctl.db*"))
		require.NoError(t, err)
		require.NotEmpty(t, files)
		for _, f := range files {
			data, err := os.ReadFile(f)
			require.NoError(t, err)
			require.False(t, bytes.Contains(data, []byte(inv.Token)), "%s holds the token", f)
		}
	})
	t.Run("the owner lists the library's invitations without tokens", func(t *testing.T) {
		second := invite(t, s, session, lib.ID, inviteBody(s, "viewer", time.Hour, 1))
		r := s.Do("GET", "/api/libraries/"+lib.ID+"/invitations", session, nil)
		page := servertest.Expect[api.Page[api.Invitation]](t, r, http.StatusOK)
		require.NotContains(t, string(r.Body), "invite_")
		require.Equal(t, []string{second.ID, inv.ID}, []string{page.Data[0].ID, page.Data[1].ID})
		require.Equal(t, inv.Invitation, page.Data[1])
	})
	t.Run("a stranger previews the library, owner, role, state and places", func(t *testing.T) {
		_, stranger := s.Session()
		p := preview(t, s, stranger, inv.Token)
		require.Equal(t, api.LibraryRef{ID: lib.ID, Name: lib.Name}, p.Library)
		require.Equal(t, owner.ID, p.Owner.ID)
		require.Equal(t, "User1", *p.Owner.DisplayName)
		require.Equal(t, inv.Invitation, p.Invitation)
	})
	t.Run("an unknown token is 404 invitation_not_found", func(t *testing.T) {
		r := s.Do("POST", "/api/libraries/invitations/preview", session, api.InvitationTokenRequest{Token: "invite_nope"})
		requireCode(t, r, http.StatusNotFound, "invitation_not_found")
		requireCode(t, join(s, session, "invite_nope"), http.StatusNotFound, "invitation_not_found")
	})
	t.Run("a blank token is 422", func(t *testing.T) {
		items := validationItems(t, s.Do("POST", "/api/libraries/invitations/preview", session, map[string]any{"token": ""}))
		require.Equal(t, []any{"body", "token"}, items[0].Loc)
	})
}

func TestInvitationCreateRefusals(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	lib := s.Libraries(session)[0]
	path := "/api/libraries/" + lib.ID + "/invitations"
	future := s.Clock.Now().Add(time.Hour).UTC().Format(time.RFC3339)

	invalid := []struct {
		name string
		body map[string]any
		loc  []any
	}{
		{"a missing role", map[string]any{"expires_at": future, "max_joiners": 1}, []any{"body", "role"}},
		{"a missing expiry", map[string]any{"role": "viewer", "max_joiners": 1}, []any{"body", "expires_at"}},
		{"missing max_joiners", map[string]any{"role": "viewer", "expires_at": future}, []any{"body", "max_joiners"}},
		{"the owner role", map[string]any{"role": "owner", "expires_at": future, "max_joiners": 1}, []any{"body", "role"}},
		{"an expiry in the past", map[string]any{"role": "viewer", "expires_at": "2001-01-01T00:00:00Z", "max_joiners": 1},
			[]any{"body", "expires_at"}},
		{"an expiry without offset", map[string]any{"role": "viewer", "expires_at": "2099-01-01T00:00:00", "max_joiners": 1},
			[]any{"body", "expires_at"}},
		{"no places", map[string]any{"role": "viewer", "expires_at": future, "max_joiners": 0}, []any{"body", "max_joiners"}},
		{"too many places", map[string]any{"role": "viewer", "expires_at": future, "max_joiners": 1001},
			[]any{"body", "max_joiners"}},
		{"an unknown field", map[string]any{"role": "viewer", "expires_at": future, "max_joiners": 1, "note": "x"},
			[]any{"body", "note"}},
	}
	for _, tc := range invalid {
		t.Run(tc.name+" is 422", func(t *testing.T) {
			items := validationItems(t, s.Do("POST", path, session, tc.body))
			require.Equal(t, tc.loc, items[0].Loc)
		})
	}

	body := inviteBody(s, "viewer", time.Hour, 1)
	t.Run("a member who is not the owner gets 403 not_library_owner", func(t *testing.T) {
		_, collab := s.AddMember(session, lib.ID, "collaborator")
		requireCode(t, s.Do("POST", path, collab, body), http.StatusForbidden, "not_library_owner")
		requireCode(t, s.Do("GET", path, collab, nil), http.StatusForbidden, "not_library_owner")
	})
	t.Run("a non-member gets 404 library_not_found", func(t *testing.T) {
		_, stranger := s.Session()
		requireCode(t, s.Do("POST", path, stranger, body), http.StatusNotFound, "library_not_found")
	})
	t.Run("an API key gets 403 first_party_session_required", func(t *testing.T) {
		key := s.CreateKey(session, []string{"all"}, nil)
		for _, r := range []*servertest.Response{
			s.Do("POST", path, key, body),
			s.Do("GET", path, key, nil),
			s.Do("POST", "/api/libraries/invitations/preview", key, api.InvitationTokenRequest{Token: "invite_x"}),
			join(s, key, "invite_x"),
		} {
			requireCode(t, r, http.StatusForbidden, "first_party_session_required")
		}
	})
}

func TestJoiningTheLastPlaceIsRaceFree(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	lib := s.Libraries(session)[0]
	inv := invite(t, s, session, lib.ID, inviteBody(s, "viewer", time.Hour, 3))
	sessions := make([]string, 8)
	for i := range sessions {
		_, sessions[i] = s.Session()
	}
	statuses := make([]int, len(sessions))
	var wg sync.WaitGroup
	for i, sess := range sessions {
		wg.Go(func() { statuses[i] = join(s, sess, inv.Token).Status })
	}
	wg.Wait()
	won := 0
	for _, st := range statuses {
		require.Contains(t, []int{http.StatusOK, http.StatusConflict}, st)
		if st == http.StatusOK {
			won++
		}
	}
	require.Equal(t, 3, won, "exactly max_joiners accounts win: %v", statuses)
	p := preview(t, s, session, inv.Token)
	require.Equal(t, 3, p.Invitation.JoinerCount)
	require.Zero(t, p.Invitation.RemainingPlaces)
	require.Equal(t, "exhausted", p.Invitation.State)
	require.Len(t, servertest.List[api.Member](s, session, "/api/libraries/"+lib.ID+"/members"), 4)
}

// TestSharingResponsesMatchTheDocument checks real answers of the library,
// member and invitation routes, successes and coded failures, against the
// schemas the served document gives them.
func TestSharingResponsesMatchTheDocument(t *testing.T) {
	s := servertest.Start(t)
	v := newValidator(t, servedDocument(t, s))
	owner, session := s.Session()
	lib := s.Libraries(session)[0]
	second, _ := createLibrary(t, s, session, "Second")
	member, memberSession := s.AddMember(session, lib.ID, "viewer")
	key := s.CreateKey(session, []string{"all"}, nil)
	var memberOwn string
	for _, l := range s.Libraries(memberSession) {
		if l.Role == "owner" {
			memberOwn = l.ID
		}
	}
	var inv api.InvitationCreated
	exchange(t, s, v, "POST", "/api/libraries/"+lib.ID+"/invitations", session,
		inviteBody(s, "collaborator", time.Hour, 2), http.StatusCreated).JSON(t, &inv)
	token := api.InvitationTokenRequest{Token: inv.Token}
	libPath, members := "/api/libraries/"+lib.ID, "/api/libraries/"+lib.ID+"/members"

	cases := []struct {
		name, method, path, token string
		body                      any
		status                    int
	}{
		{"libraries by state", "GET", "/api/libraries?state=all", session, nil, http.StatusOK},
		{"trash", "POST", "/api/libraries/" + second.ID + "/trash", session, nil, http.StatusOK},
		{"restore", "POST", "/api/libraries/" + second.ID + "/restore", session, nil, http.StatusOK},
		{"a non-member trashing", "POST", "/api/libraries/" + second.ID + "/trash", memberSession, nil, http.StatusNotFound},
		{"last live library", "POST", "/api/libraries/" + memberOwn + "/trash", memberSession, nil, http.StatusConflict},
		{"trash by a viewer", "POST", libPath + "/trash", memberSession, nil, http.StatusForbidden},
		{"switch", "POST", libPath + "/switch", session, nil, http.StatusOK},
		{"members", "GET", members, memberSession, nil, http.StatusOK},
		{"members with a key", "GET", members, key, nil, http.StatusForbidden},
		{"role change", "PATCH", members + "/" + member.ID, session, api.MemberUpdateRequest{Role: "collaborator"}, http.StatusOK},
		{"role change of the owner", "PATCH", members + "/" + owner.ID, session, api.MemberUpdateRequest{Role: "viewer"},
			http.StatusUnprocessableEntity},
		{"unknown member", "DELETE", members + "/intuser_01hzzzzzzzzzzzzzzzzzzzzzzz", session, nil, http.StatusNotFound},
		{"the owner leaving", "POST", libPath + "/leave", session, nil, http.StatusConflict},
		{"invitations", "GET", libPath + "/invitations", session, nil, http.StatusOK},
		{"preview", "POST", "/api/libraries/invitations/preview", memberSession, token, http.StatusOK},
		{"preview of an unknown token", "POST", "/api/libraries/invitations/preview", memberSession,
			api.InvitationTokenRequest{Token: "invite_x"}, http.StatusNotFound},
		{"join as a member", "POST", "/api/libraries/invitations/join", memberSession, token, http.StatusConflict},
		{"disable", "POST", "/api/libraries/invitations/" + inv.ID + "/disable", session, nil, http.StatusOK},
		{"leave", "POST", libPath + "/leave", memberSession, nil, http.StatusNoContent},
		{"remove", "DELETE", members + "/" + member.ID, session, nil, http.StatusNotFound},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			exchange(t, s, v, tc.method, tc.path, tc.token, tc.body, tc.status)
		})
	}
	t.Run("join", func(t *testing.T) {
		_, stranger := s.Session()
		fresh := invite(t, s, session, lib.ID, inviteBody(s, "viewer", time.Hour, 1))
		exchange(t, s, v, "POST", "/api/libraries/invitations/join", stranger,
			api.InvitationTokenRequest{Token: fresh.Token}, http.StatusOK)
	})
}
