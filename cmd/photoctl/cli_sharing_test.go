package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
)

// TestCLIInviteJoinMembers shares a library: the owner invites, a second
// user previews and joins, the owner lists members, changes the role and
// removes the member, who cannot come back with the old invitation.
func TestCLIInviteJoinMembers(t *testing.T) {
	t.Parallel()
	cs := newCLIServer(t)
	cs.login(t)
	guestUser := cs.CreateUser()
	guest := &cliServer{Server: cs.Server, user: guestUser, env: binaryEnv(t, "XDG_CACHE_HOME="+t.TempDir(), "NO_COLOR=1")}
	guest.login(t)

	r := cs.ok(t, "", nil, "libraries", "create", "--json", "Family")
	family := decode[api.Library](t, r)

	// With two libraries, path commands want to know which one.
	r = cs.run(t, "", nil, "invite", "list")
	require.Equal(t, exitUsage, r.code)
	require.Contains(t, r.stderr, "you have 2 libraries")

	r = cs.ok(t, "", nil, "invite", "create", "--library", "family", "--role", "viewer", "--expires", "48h", "--max", "2", "--json")
	inv := decode[api.InvitationCreated](t, r)
	require.True(t, strings.HasPrefix(inv.Token, "invite_"), inv.Token)
	r = cs.run(t, "", nil, "invite", "create", "--library", "Family", "--role", "admin")
	require.Equal(t, exitUsage, r.code, "the server refuses the role: %s", r.stderr)
	r = cs.run(t, "", nil, "invite", "create", "--library", "Family", "--expires", "soon")
	require.Equal(t, exitUsage, r.code)

	r = guest.ok(t, "", nil, "invite", "preview", "--json", inv.Token)
	pv := decode[api.InvitationPreview](t, r)
	require.Equal(t, "Family", pv.Library.Name)
	require.Equal(t, 2, pv.Invitation.RemainingPlaces)
	r = guest.ok(t, inv.Token+"\n", nil, "invite", "join", "--json", "-")
	joined := decode[api.Library](t, r)
	require.Equal(t, family.ID, joined.ID)
	require.Equal(t, "viewer", joined.Role)
	r = guest.run(t, "", nil, "invite", "join", inv.Token)
	require.Equal(t, exitFailure, r.code, "already a member: 409")
	require.Contains(t, r.stderr, "409")

	r = cs.ok(t, "", nil, "members", "list", "--library", "Family", "--json")
	members := decode[[]api.Member](t, r)
	require.Len(t, members, 2)
	require.Equal(t, guestUser.ID, members[0].ID, "most recently joined first")
	r = guest.run(t, "", nil, "members", "role", "--library", family.ID, guestUser.ID, "collaborator")
	require.Equal(t, exitAuth, r.code, "only the owner changes roles: 403")
	r = cs.ok(t, "", nil, "members", "role", "--library", "Family", "--json", guestUser.ID, "collaborator")
	require.Equal(t, "collaborator", decode[api.Member](t, r).Role)
	r = cs.run(t, "", nil, "members", "role", "--library", "Family", guestUser.ID, "owner")
	require.Equal(t, exitUsage, r.code, r.stderr)

	r = cs.ok(t, "", nil, "invite", "list", "--library", "Family", "--json")
	invs := decode[[]api.Invitation](t, r)
	require.Len(t, invs, 1)
	require.Equal(t, 1, invs[0].JoinerCount)

	r = cs.ok(t, "", nil, "members", "remove", "--library", "Family", "--json", guestUser.ID)
	require.Equal(t, []string{guestUser.ID}, decode[map[string][]string](t, r)["removed"])
	r = guest.run(t, "", nil, "libraries", "list", "--json")
	require.Len(t, decode[[]api.Library](t, r), 1, "the guest sees only their own library again")
	r = guest.run(t, "", nil, "invite", "join", inv.Token)
	require.Equal(t, exitFailure, r.code, "a removed member cannot use an older invitation")
	require.Contains(t, r.stderr, "the owner removed you")

	// A new invitation admits them; they leave on their own; the owner
	// disables it.
	r = cs.ok(t, "", nil, "invite", "create", "--library", "Family", "--json")
	inv2 := decode[api.InvitationCreated](t, r)
	guest.ok(t, "", nil, "invite", "join", inv2.Token)
	r = guest.ok(t, "", nil, "members", "leave", "Family")
	r = cs.run(t, "", nil, "members", "leave", "Family")
	require.Equal(t, exitFailure, r.code, "the owner cannot leave")
	require.Contains(t, r.stderr, "the owner cannot leave")
	r = cs.ok(t, "", nil, "invite", "disable", "--json", inv2.ID)
	require.Equal(t, "disabled", decode[[]api.Invitation](t, r)[0].State)
}

// TestCLILibrariesSwitchTrashRestore: switch makes a library the profile's
// default for commands that follow the selection rule; trash and restore
// take names too.
func TestCLILibrariesSwitchTrashRestore(t *testing.T) {
	t.Parallel()
	cs := newCLIServer(t)
	cs.login(t)
	r := cs.ok(t, "", nil, "libraries", "create", "--json", "Family")
	family := decode[api.Library](t, r)

	r = cs.run(t, "", nil, "ls")
	require.Equal(t, exitUsage, r.code, "two libraries and no default: the server wants library_id")
	r = cs.ok(t, "", nil, "libraries", "switch", "--json", "Family")
	require.Equal(t, family.ID, decode[api.Library](t, r).ID)
	r = cs.ok(t, "", nil, "ls", "--json")
	r = cs.ok(t, "", nil, "albums", "create", "--json", "In the default")
	require.Equal(t, family.ID, decode[api.Album](t, r).LibraryID)
	r = cs.ok(t, "", nil, "libraries", "list")
	require.Regexp(t, `(?m)^\*\s+`+family.ID, r.stdout, "the default is marked")
	r = cs.run(t, "", nil, "libraries", "switch", "Nowhere")
	require.Equal(t, exitUsage, r.code)
	require.Contains(t, r.stderr, `no library named "Nowhere"`)

	r = cs.ok(t, "", nil, "libraries", "trash", "--json", "Family")
	require.NotNil(t, decode[api.Library](t, r).TrashedAt)
	r = cs.ok(t, "", nil, "ls", "--json")
	r = cs.run(t, "", nil, "libraries", "list", "--state", "trashed", "--json")
	require.Len(t, decode[[]api.Library](t, r), 1)
	r = cs.run(t, "", nil, "libraries", "trash", "My Library")
	require.Equal(t, exitFailure, r.code, "the last live library stays: 409")
	require.Contains(t, r.stderr, "your last live library")
	r = cs.ok(t, "", nil, "libraries", "restore", "family")
	require.Contains(t, r.stdout, "restored")
}
