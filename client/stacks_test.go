package client_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

func TestStacksCreateEditDissolve(t *testing.T) {
	s := servertest.Start(t)
	c, _, _ := sessionClient(t, s)
	ctx := context.Background()
	dir := t.TempDir()
	a := upload(t, c, writeJPEG(t, dir, "a.jpg", 80)).ID
	b := upload(t, c, writeJPEG(t, dir, "b.jpg", 81)).ID
	d := upload(t, c, writeJPEG(t, dir, "d.jpg", 82)).ID

	st, err := c.CreateStack(ctx, "", []string{a, b}, b)
	require.NoError(t, err)
	require.Equal(t, b, st.CoverAssetID)
	_, err = c.CreateStack(ctx, "", []string{a, d}, "")
	require.ErrorIs(t, err, client.ErrConflict, "a is in a stack already")

	st, dissolved, err := c.UpdateStack(ctx, st.ID, api.StackUpdateRequest{AddAssetIDs: []string{d}, CoverAssetID: &d})
	require.NoError(t, err)
	require.False(t, dissolved)
	require.Equal(t, 3, st.AssetCount)
	list, err := client.Collect(c.Stacks(ctx, ""))
	require.NoError(t, err)
	require.Len(t, list, 1)

	st, dissolved, err = c.UpdateStack(ctx, st.ID, api.StackUpdateRequest{RemoveAssetIDs: []string{a, b}})
	require.NoError(t, err)
	require.True(t, dissolved, "one member left")
	require.Nil(t, st)

	again, err := c.CreateStack(ctx, "", []string{a, b}, "")
	require.NoError(t, err)
	got, err := c.Stack(ctx, again.ID)
	require.NoError(t, err)
	require.ElementsMatch(t, []string{a, b}, got.AssetIDs)
	require.NoError(t, c.DeleteStack(ctx, again.ID))
	_, err = c.Stack(ctx, again.ID)
	require.ErrorIs(t, err, client.ErrNotFound)
}
