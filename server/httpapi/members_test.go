package httpapi_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

// lastEvent returns the newest event of a library.
func lastEvent(t *testing.T, s *servertest.Server, session, libraryID string) api.Event {
	t.Helper()
	evs := s.Events(session, libraryID)
	require.NotEmpty(t, evs)
	return evs[len(evs)-1]
}

func TestMembersListAndRoleChanges(t *testing.T) {
	s := servertest.Start(t)
	owner, session := s.Session()
	lib := s.Libraries(session)[0]
	collab, collabSession := s.AddMember(session, lib.ID, "collaborator")
	viewer, viewerSession := s.AddMember(session, lib.ID, "viewer")
	members := "/api/libraries/" + lib.ID + "/members"

	t.Run("any member lists the members, most recently joined first", func(t *testing.T) {
		for _, sess := range []string{session, collabSession, viewerSession} {
			got := servertest.List[api.Member](s, sess, members)
			require.Equal(t, []string{viewer.ID, collab.ID, owner.ID}, memberIDs(got))
			require.Equal(t, []string{"viewer", "collaborator", "owner"}, []string{got[0].Role, got[1].Role, got[2].Role})
			require.NotNil(t, got[0].InvitationID)
			require.Nil(t, got[2].InvitationID)
			require.Equal(t, "User1", *got[2].DisplayName)
		}
	})
	t.Run("members page by user id", func(t *testing.T) {
		page := servertest.List[api.Member](s, session, members+"?limit=1&starting_after_id="+viewer.ID)
		require.Equal(t, []string{collab.ID}, memberIDs(page))
	})
	t.Run("the joiner sees the library with the offered role", func(t *testing.T) {
		var found bool
		for _, l := range s.Libraries(viewerSession) {
			if l.ID == lib.ID {
				found = true
				require.Equal(t, "viewer", l.Role)
				require.Equal(t, owner.ID, l.OwnerID)
			}
		}
		require.True(t, found)
		ev := s.Events(session, lib.ID)
		require.Equal(t, "member.created", ev[len(ev)-1].Type)
		require.Equal(t, viewer.ID, ev[len(ev)-1].ResourceID)
	})
	t.Run("a viewer cannot upload until the owner makes them a collaborator", func(t *testing.T) {
		fields := map[string]string{"library_id": lib.ID}
		requireDetail(t, s.Upload(viewerSession, "v.jpg", servertest.JPEG(t, 16, 16, 1), fields), http.StatusForbidden)
		r := s.Do("PATCH", members+"/"+viewer.ID, session, api.MemberUpdateRequest{Role: "collaborator"})
		m := servertest.Expect[api.Member](t, r, http.StatusOK)
		require.Equal(t, "collaborator", m.Role)
		require.True(t, m.UpdatedAt.After(m.JoinedAt) || m.UpdatedAt.Equal(m.JoinedAt))
		ev := lastEvent(t, s, session, lib.ID)
		require.Equal(t, "member.updated", ev.Type)
		require.JSONEq(t, `{"role":"collaborator"}`, string(ev.Data))
		s.UploadAsset(viewerSession, "v.jpg", servertest.JPEG(t, 16, 16, 1), fields)
	})
	t.Run("setting the same role changes nothing", func(t *testing.T) {
		before := len(s.Events(session, lib.ID))
		r := s.Do("PATCH", members+"/"+collab.ID, session, api.MemberUpdateRequest{Role: "collaborator"})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		require.Len(t, s.Events(session, lib.ID), before)
	})
	t.Run("role change refusals", func(t *testing.T) {
		items := validationItems(t, s.Do("PATCH", members+"/"+collab.ID, session, api.MemberUpdateRequest{Role: "owner"}))
		require.Equal(t, []any{"body", "role"}, items[0].Loc)
		items = validationItems(t, s.Do("PATCH", members+"/"+owner.ID, session, api.MemberUpdateRequest{Role: "viewer"}))
		require.Equal(t, []any{"path", "user_id"}, items[0].Loc)
		requireCode(t, s.Do("PATCH", members+"/intuser_01hzzzzzzzzzzzzzzzzzzzzzzz", session,
			api.MemberUpdateRequest{Role: "viewer"}), http.StatusNotFound, "member_not_found")
		requireCode(t, s.Do("PATCH", members+"/"+viewer.ID, collabSession, api.MemberUpdateRequest{Role: "viewer"}),
			http.StatusForbidden, "not_library_owner")
		requireCode(t, s.Do("DELETE", members+"/"+viewer.ID, collabSession, nil), http.StatusForbidden, "not_library_owner")
		_, stranger := s.Session()
		requireCode(t, s.Do("GET", members, stranger, nil), http.StatusNotFound, "library_not_found")
		key := s.CreateKey(session, []string{"all"}, nil)
		requireCode(t, s.Do("GET", members, key, nil), http.StatusForbidden, "first_party_session_required")
		items = validationItems(t, s.Do("DELETE", members+"/"+owner.ID, session, nil))
		require.Equal(t, []any{"path", "user_id"}, items[0].Loc)
	})
}

// TestLosingMembershipCutsOffEveryCredential: a removed or departed member
// is refused the library's data from the next request on, through their
// session and through API keys made before.
func TestLosingMembershipCutsOffEveryCredential(t *testing.T) {
	s := servertest.Start(t)
	_, owner := s.Session()
	lib := s.Libraries(owner)[0]
	asset := s.UploadAsset(owner, "a.jpg", servertest.JPEG(t, 16, 16, 1), nil)

	for _, how := range []string{"removed", "left"} {
		t.Run(how, func(t *testing.T) {
			member, session := s.AddMember(owner, lib.ID, "collaborator")
			everyLib := s.CreateKey(session, []string{"all"}, nil)
			thisLib := s.CreateKey(session, []string{"all"}, []string{lib.ID})
			r := s.Do("PATCH", "/api/users/me/preferences", session, map[string]any{"default_library_id": lib.ID,
				"immich_library_id": lib.ID})
			require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
			reads := []string{"/api/assets/" + asset.ID, "/api/assets?library_id=" + lib.ID,
				"/api/events?library_id=" + lib.ID, "/api/libraries/" + lib.ID}
			for _, cred := range []string{session, everyLib, thisLib} {
				for _, path := range reads {
					require.Equal(t, http.StatusOK, s.Do("GET", path, cred, nil).Status, path)
				}
			}

			if how == "removed" {
				require.Equal(t, http.StatusNoContent,
					s.Do("DELETE", "/api/libraries/"+lib.ID+"/members/"+member.ID, owner, nil).Status)
			} else {
				require.Equal(t, http.StatusNoContent, s.Do("POST", "/api/libraries/"+lib.ID+"/leave", session, nil).Status)
			}

			for _, cred := range []string{session, everyLib, thisLib} {
				for _, path := range reads {
					requireDetail(t, s.Do("GET", path, cred, nil), http.StatusNotFound)
				}
				requireDetail(t, s.Do("PATCH", "/api/assets/"+asset.ID, cred, map[string]any{"rating": 3}),
					http.StatusNotFound)
				// Bulk operations answer an unreachable id as a 422 on that item.
				items := validationItems(t, s.Do("POST", "/api/assets/trash", cred, api.AssetIDs{IDs: []string{asset.ID}}))
				require.Equal(t, []any{"body", "ids", float64(0)}, items[0].Loc)
				requireDetail(t, s.Upload(cred, "b.jpg", servertest.JPEG(t, 16, 16, 2),
					map[string]string{"library_id": lib.ID}), http.StatusNotFound)
			}
			for _, l := range s.Libraries(session) {
				require.NotEqual(t, lib.ID, l.ID)
			}
			var prefs api.Preferences
			s.Do("GET", "/api/users/me/preferences", session, nil).JSON(t, &prefs)
			require.Nil(t, prefs.DefaultLibraryID, "preferences forget the library")
			require.Nil(t, prefs.ImmichLibraryID)
			require.NotContains(t, memberIDs(servertest.List[api.Member](s, owner, "/api/libraries/"+lib.ID+"/members")),
				member.ID)
			ev := lastEvent(t, s, owner, lib.ID)
			require.Equal(t, "member.deleted", ev.Type)
			require.Equal(t, member.ID, ev.ResourceID)
			var data map[string]string
			require.NoError(t, json.Unmarshal(ev.Data, &data))
			require.Equal(t, how, data["reason"])
			require.Nil(t, getAsset(t, s, owner, asset.ID).TrashedAt, "nothing was trashed by the refused calls")
		})
	}

	t.Run("a removed member cannot rejoin through an invitation issued before the removal", func(t *testing.T) {
		member, session := s.Session()
		old := invite(t, s, owner, lib.ID, inviteBody(s, "viewer", time.Hour, 5))
		require.Equal(t, http.StatusOK, join(s, session, old.Token).Status)
		require.Equal(t, http.StatusNoContent, s.Do("DELETE", "/api/libraries/"+lib.ID+"/members/"+member.ID, owner, nil).Status)
		requireCode(t, join(s, session, old.Token), http.StatusConflict, "member_removed")
		s.Clock.Advance(time.Millisecond)
		fresh := invite(t, s, owner, lib.ID, inviteBody(s, "viewer", time.Hour, 5))
		require.Equal(t, http.StatusOK, join(s, session, fresh.Token).Status)
	})
	t.Run("removing a non-member is 404 member_not_found", func(t *testing.T) {
		stranger, _ := s.Session()
		requireCode(t, s.Do("DELETE", "/api/libraries/"+lib.ID+"/members/"+stranger.ID, owner, nil),
			http.StatusNotFound, "member_not_found")
	})
	t.Run("the owner cannot leave", func(t *testing.T) {
		requireCode(t, s.Do("POST", "/api/libraries/"+lib.ID+"/leave", owner, nil), http.StatusConflict, "owner_cannot_leave")
	})
	t.Run("a non-member cannot leave", func(t *testing.T) {
		_, stranger := s.Session()
		requireCode(t, s.Do("POST", "/api/libraries/"+lib.ID+"/leave", stranger, nil), http.StatusNotFound, "library_not_found")
	})
}

// TestCollaboratorUploadsAreChargedToTheOwner: the contributor is recorded
// and the bytes count against the owner's allowance, not the uploader's.
func TestCollaboratorUploadsAreChargedToTheOwner(t *testing.T) {
	s := servertest.Start(t)
	owner, session := s.Session()
	lib := s.Libraries(session)[0]
	collab, collabSession := s.AddMember(session, lib.ID, "collaborator")
	first, second := servertest.JPEG(t, 64, 64, 7), servertest.JPEG(t, 64, 64, 8)
	s.SetQuota(owner.ID, int64(len(first)+10))
	s.SetQuota(collab.ID, 0)

	a := s.UploadAsset(collabSession, "c.jpg", first, map[string]string{"library_id": lib.ID})
	require.Equal(t, collab.ID, a.ContributorID)
	require.Equal(t, lib.ID, a.LibraryID)
	requireDetail(t, s.Upload(collabSession, "d.jpg", second, map[string]string{"library_id": lib.ID}),
		http.StatusInsufficientStorage)
	requireDetail(t, s.Upload(session, "d.jpg", second, map[string]string{"library_id": lib.ID}),
		http.StatusInsufficientStorage)
}
