package httpapi_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/servertest"
)

// disable disables an invitation and requires a 200.
func disable(t *testing.T, s *servertest.Server, session, id string) (api.Invitation, []byte) {
	t.Helper()
	r := s.Do("POST", "/api/libraries/invitations/"+id+"/disable", session, nil)
	inv := servertest.Expect[api.Invitation](t, r, http.StatusOK)
	return inv, r.Body
}

// TestInvitationStates walks invitations through their derived states on a
// frozen clock: each step moves the clock or acts, then checks what the
// preview reports and what a join answers.
func TestInvitationStates(t *testing.T) {
	// Sessions outlive the hours the clock is moved forward.
	s := servertest.Start(t, func(c *app.Config) { c.Auth.AccessTTL = 30 * 24 * time.Hour })
	s.Clock.Freeze()
	_, owner := s.Session()
	lib := s.Libraries(owner)[0]
	_, onlooker := s.Session()

	state := func(token string) api.Invitation { return preview(t, s, onlooker, token).Invitation }

	t.Run("expiry is exclusive: active until the instant, expired at it", func(t *testing.T) {
		inv := invite(t, s, owner, lib.ID, inviteBody(s, "viewer", time.Hour, 5))
		require.Equal(t, "active", state(inv.Token).State)
		s.Clock.Advance(time.Hour - time.Microsecond)
		require.Equal(t, "active", state(inv.Token).State)
		s.Clock.Advance(time.Microsecond)
		require.True(t, s.Clock.Now().Equal(inv.ExpiresAt), "the clock is at expires_at exactly")
		got := state(inv.Token)
		require.Equal(t, "expired", got.State)
		require.Equal(t, 5, got.RemainingPlaces)
		_, late := s.Session()
		requireCode(t, join(s, late, inv.Token), http.StatusConflict, "invitation_expired")
	})

	t.Run("exhausted when every place is taken; remaining_places never negative", func(t *testing.T) {
		inv := invite(t, s, owner, lib.ID, inviteBody(s, "viewer", time.Hour, 2))
		for range 2 {
			_, sess := s.Session()
			require.Equal(t, http.StatusOK, join(s, sess, inv.Token).Status)
		}
		got := state(inv.Token)
		require.Equal(t, "exhausted", got.State)
		require.Equal(t, 2, got.JoinerCount)
		require.Zero(t, got.RemainingPlaces)
		_, third := s.Session()
		requireCode(t, join(s, third, inv.Token), http.StatusConflict, "invitation_exhausted")
		require.Equal(t, 2, state(inv.Token).JoinerCount)

		t.Run("expired is reported before exhausted", func(t *testing.T) {
			s.Clock.Advance(time.Hour)
			require.Equal(t, "expired", state(inv.Token).State)
			requireCode(t, join(s, third, inv.Token), http.StatusConflict, "invitation_expired")
		})
	})

	t.Run("disabled beats expired and exhausted, and repeating changes nothing", func(t *testing.T) {
		inv := invite(t, s, owner, lib.ID, inviteBody(s, "collaborator", time.Hour, 1))
		member, sess := s.Session()
		require.Equal(t, http.StatusOK, join(s, sess, inv.Token).Status)
		s.Clock.Advance(2 * time.Hour) // expired and exhausted
		require.Equal(t, "expired", state(inv.Token).State)

		s.Clock.Advance(time.Minute)
		first, firstBody := disable(t, s, owner, inv.ID)
		require.Equal(t, "disabled", first.State)
		require.True(t, first.DisabledAt.Equal(s.Clock.Now()))
		require.Equal(t, *first.DisabledAt, first.UpdatedAt)
		require.Equal(t, "disabled", state(inv.Token).State)

		s.Clock.Advance(time.Minute)
		again, againBody := disable(t, s, owner, inv.ID)
		require.Equal(t, first, again)
		require.JSONEq(t, string(firstBody), string(againBody))

		_, late := s.Session()
		requireCode(t, join(s, late, inv.Token), http.StatusConflict, "invitation_disabled")
		members := servertest.List[api.Member](s, owner, "/api/libraries/"+lib.ID+"/members?limit=200")
		require.Contains(t, memberIDs(members), member.ID, "existing members stay")
		require.Equal(t, http.StatusOK, s.Do("GET", "/api/libraries/"+lib.ID, sess, nil).Status)
	})

	t.Run("a disabled active invitation admits nobody", func(t *testing.T) {
		inv := invite(t, s, owner, lib.ID, inviteBody(s, "viewer", time.Hour, 5))
		disable(t, s, owner, inv.ID)
		got := state(inv.Token)
		require.Equal(t, "disabled", got.State)
		require.Equal(t, 5, got.RemainingPlaces)
		_, sess := s.Session()
		requireCode(t, join(s, sess, inv.Token), http.StatusConflict, "invitation_disabled")
	})

	t.Run("a departed member rejoins without taking a new place, even when none is left", func(t *testing.T) {
		inv := invite(t, s, owner, lib.ID, inviteBody(s, "viewer", time.Hour, 1))
		_, sess := s.Session()
		require.Equal(t, http.StatusOK, join(s, sess, inv.Token).Status)
		requireCode(t, join(s, sess, inv.Token), http.StatusConflict, "already_member")
		require.Equal(t, http.StatusNoContent, s.Do("POST", "/api/libraries/"+lib.ID+"/leave", sess, nil).Status)
		left := state(inv.Token)
		require.Equal(t, 1, left.JoinerCount, "a departed member still counts")
		require.Equal(t, "exhausted", left.State)

		r := join(s, sess, inv.Token)
		l := servertest.Expect[api.Library](t, r, http.StatusOK)
		require.Equal(t, lib.ID, l.ID)
		require.Equal(t, "viewer", l.Role)
		back := state(inv.Token)
		require.Equal(t, 1, back.JoinerCount)
		require.Zero(t, back.RemainingPlaces)
	})

	t.Run("the owner is already a member", func(t *testing.T) {
		inv := invite(t, s, owner, lib.ID, inviteBody(s, "viewer", time.Hour, 1))
		requireCode(t, join(s, owner, inv.Token), http.StatusConflict, "already_member")
		require.Zero(t, state(inv.Token).JoinerCount)
	})
}

func TestDisableRefusals(t *testing.T) {
	s := servertest.Start(t)
	_, owner := s.Session()
	lib := s.Libraries(owner)[0]
	inv := invite(t, s, owner, lib.ID, inviteBody(s, "viewer", time.Hour, 5))
	path := "/api/libraries/invitations/" + inv.ID + "/disable"

	t.Run("a member who is not the owner gets 403 not_library_owner", func(t *testing.T) {
		_, collab := s.AddMember(owner, lib.ID, "collaborator")
		requireCode(t, s.Do("POST", path, collab, nil), http.StatusForbidden, "not_library_owner")
	})
	t.Run("a non-member gets 404 invitation_not_found", func(t *testing.T) {
		_, stranger := s.Session()
		requireCode(t, s.Do("POST", path, stranger, nil), http.StatusNotFound, "invitation_not_found")
	})
	t.Run("an unknown invitation is 404 invitation_not_found", func(t *testing.T) {
		requireCode(t, s.Do("POST", "/api/libraries/invitations/inv_01hzzzzzzzzzzzzzzzzzzzzzzz/disable", owner, nil),
			http.StatusNotFound, "invitation_not_found")
	})
	t.Run("a malformed id is 422", func(t *testing.T) {
		items := validationItems(t, s.Do("POST", "/api/libraries/invitations/nope/disable", owner, nil))
		require.Equal(t, []any{"path", "invitation_id"}, items[0].Loc)
	})
	t.Run("an API key gets 403 first_party_session_required", func(t *testing.T) {
		key := s.CreateKey(owner, []string{"all"}, nil)
		requireCode(t, s.Do("POST", path, key, nil), http.StatusForbidden, "first_party_session_required")
	})
	t.Run("nothing was disabled by the refusals", func(t *testing.T) {
		require.Equal(t, "active", preview(t, s, owner, inv.Token).Invitation.State)
	})
}

func memberIDs(ms []api.Member) []string {
	return mapped(ms, func(m api.Member) string { return m.ID })
}
