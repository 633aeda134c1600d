package client_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

func box(x, y, w, h float64) *api.BoundingBoxInput {
	return &api.BoundingBoxInput{X: &x, Y: &y, Width: &w, Height: &h}
}

func TestPeopleAndFaces(t *testing.T) {
	s := servertest.Start(t)
	c, _, _ := sessionClient(t, s)
	ctx := context.Background()
	asset := upload(t, c, writeJPEG(t, t.TempDir(), "a.jpg", 70)).ID

	ann, created, err := c.CreatePerson(ctx, api.PersonCreateRequest{Name: "Ann"})
	require.NoError(t, err)
	require.True(t, created)
	bob, _, err := c.CreatePerson(ctx, api.PersonCreateRequest{Name: "Bob"})
	require.NoError(t, err)

	f1, err := c.CreateFace(ctx, api.FaceCreateRequest{AssetID: asset, BoundingBox: box(0.1, 0.1, 0.2, 0.2), PersonID: &ann.ID})
	require.NoError(t, err)
	require.Equal(t, "manual", f1.Source)
	f2, err := c.CreateFace(ctx, api.FaceCreateRequest{AssetID: asset, BoundingBox: box(0.5, 0.5, 0.2, 0.2), PersonID: &bob.ID})
	require.NoError(t, err)
	_, err = c.CreateFace(ctx, api.FaceCreateRequest{AssetID: asset, BoundingBox: box(0.9, 0.9, 0.5, 0.5)})
	var apiErr *client.APIError
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, 422, apiErr.Status)
	require.NotEmpty(t, apiErr.Fields, "the box overflows the image")

	faces, err := client.Collect(c.Faces(ctx, client.FaceQuery{PersonID: ann.ID}))
	require.NoError(t, err)
	require.Len(t, faces, 1)
	faces, err = client.Collect(c.Faces(ctx, client.FaceQuery{AssetID: asset}))
	require.NoError(t, err)
	require.Len(t, faces, 2)

	named := true
	list, err := client.Collect(c.People(ctx, client.PersonQuery{Name: "an", Named: &named, AssetID: asset,
		IncludeUnverified: true}))
	require.NoError(t, err)
	require.Len(t, list, 1)
	require.Equal(t, ann.ID, list[0].ID)

	hidden, fav, newName := true, true, "Anne"
	p, err := c.UpdatePerson(ctx, ann.ID, api.PersonUpdateRequest{Name: api.Optional[string]{Set: true, Value: &newName},
		IsHidden: api.Optional[bool]{Set: true, Value: &hidden}, IsFavorite: api.Optional[bool]{Set: true, Value: &fav}})
	require.NoError(t, err)
	require.Equal(t, "Anne", *p.Name)
	require.True(t, p.IsHidden)
	require.True(t, p.IsFavorite)

	p, err = c.MergePeople(ctx, ann.ID, []string{bob.ID})
	require.NoError(t, err)
	require.Equal(t, 2, len(mustCollect(t, c.Faces(ctx, client.FaceQuery{PersonID: ann.ID}))))
	_, err = c.Person(ctx, bob.ID)
	require.ErrorIs(t, err, client.ErrNotFound)

	require.NoError(t, c.DeleteFace(ctx, f2.ID))
	require.ErrorIs(t, c.DeleteFace(ctx, f2.ID), client.ErrNotFound)
}

func mustCollect[T any](t *testing.T, seq func(func(T, error) bool)) []T {
	t.Helper()
	out, err := client.Collect(seq)
	require.NoError(t, err)
	return out
}
