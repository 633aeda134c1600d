package client_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/server/servertest"
)

func TestTasksListAndGet(t *testing.T) {
	s := servertest.Start(t) // no workers: the upload's first task stays queued
	c, _, _ := sessionClient(t, s)
	ctx := context.Background()
	asset := upload(t, c, writeJPEG(t, t.TempDir(), "a.jpg", 90)).ID

	tasks, err := client.Collect(c.Tasks(ctx, client.TaskQuery{AssetID: asset, State: client.TaskQueued}, 0))
	require.NoError(t, err)
	require.Len(t, tasks, 1)
	require.Equal(t, "metadata", tasks[0].Kind)
	got, err := c.Task(ctx, tasks[0].ID)
	require.NoError(t, err)
	require.Equal(t, asset, *got.AssetID)

	none, err := client.Collect(c.Tasks(ctx, client.TaskQuery{State: client.TaskFailed}, 0))
	require.NoError(t, err)
	require.Empty(t, none)
	_, err = client.Collect(c.Tasks(ctx, client.TaskQuery{State: "done"}, 0))
	require.ErrorIs(t, err, client.ErrInvalid)
}
