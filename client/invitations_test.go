package client_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/server/servertest"
)

func TestInvitationJoinMembersAndLibraryLifecycle(t *testing.T) {
	s := servertest.Start(t)
	owner, _, _ := sessionClient(t, s)
	guest, _, guestUser := sessionClient(t, s)
	ctx := context.Background()
	lib, _, err := owner.CreateLibrary(ctx, "Family")
	require.NoError(t, err)

	inv, err := owner.CreateInvitation(ctx, lib.ID, "viewer", s.Clock.Now().Add(24*time.Hour), 2)
	require.NoError(t, err)
	require.NotEmpty(t, inv.Token)
	require.Equal(t, "active", inv.State)
	invs, err := client.Collect(owner.Invitations(ctx, lib.ID))
	require.NoError(t, err)
	require.Len(t, invs, 1)

	pv, err := guest.PreviewInvitation(ctx, inv.Token)
	require.NoError(t, err)
	require.Equal(t, "Family", pv.Library.Name)
	joined, err := guest.JoinInvitation(ctx, inv.Token)
	require.NoError(t, err)
	require.Equal(t, "viewer", joined.Role)
	_, err = guest.JoinInvitation(ctx, inv.Token)
	var apiErr *client.APIError
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, "already_member", apiErr.Code)

	members, err := client.Collect(owner.Members(ctx, lib.ID))
	require.NoError(t, err)
	require.Len(t, members, 2)
	m, err := owner.SetMemberRole(ctx, lib.ID, guestUser.ID, "collaborator")
	require.NoError(t, err)
	require.Equal(t, "collaborator", m.Role)
	require.NoError(t, guest.LeaveLibrary(ctx, lib.ID))
	_, err = guest.Library(ctx, lib.ID)
	require.ErrorIs(t, err, client.ErrNotFound)
	_, err = guest.JoinInvitation(ctx, inv.Token)
	require.NoError(t, err, "someone who left may rejoin")
	require.NoError(t, owner.RemoveMember(ctx, lib.ID, guestUser.ID))

	disabled, err := owner.DisableInvitation(ctx, inv.ID)
	require.NoError(t, err)
	require.Equal(t, "disabled", disabled.State)

	sw, err := owner.SwitchLibrary(ctx, lib.ID)
	require.NoError(t, err)
	require.Equal(t, lib.ID, sw.ID)
	prefs, err := owner.Preferences(ctx)
	require.NoError(t, err)
	require.Equal(t, lib.ID, *prefs.DefaultLibraryID)

	trashed, err := owner.TrashLibrary(ctx, lib.ID)
	require.NoError(t, err)
	require.NotNil(t, trashed.TrashedAt)
	inTrash, err := client.Collect(owner.LibrariesIn(ctx, "trashed"))
	require.NoError(t, err)
	require.Len(t, inTrash, 1)
	restored, err := owner.RestoreLibrary(ctx, lib.ID)
	require.NoError(t, err)
	require.Nil(t, restored.TrashedAt)
}
