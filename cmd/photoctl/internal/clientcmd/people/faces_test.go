package people

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdtest"
	"github.com/photoctl/photoctl/server/api"
)

func TestFacesListParsesItsOptions(t *testing.T) {
	parse := func(args ...string) *FacesListOptions { return cmdtest.Parse(t, NewCmdFacesList, "", args...) }
	got := parse("--library", "Family", "--asset", "asset_1", "--person", "Ann",
		"--id", "face_1", "--id", "face_2", "--json")
	require.Equal(t, "Family", got.Library)
	require.Equal(t, "Ann", got.Person)
	require.Equal(t, client.FaceQuery{AssetID: "asset_1", IDs: []string{"face_1", "face_2"}}, got.Query)
	require.True(t, got.JSON)

	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdFacesList), map[string][]string{
		"an argument": {"extra"},
	})
}

func TestFacesCreateParsesItsOptions(t *testing.T) {
	parse := func(args ...string) *FacesCreateOptions { return cmdtest.Parse(t, NewCmdFacesCreate, "", args...) }
	got := parse("--library", "Family", "--asset", "asset_1", "--box", "0.42, 0.10,0.12,0.18",
		"--person", "Ann", "--at", "4500", "--json")
	require.Equal(t, "Family", got.Library)
	require.Equal(t, "Ann", got.Person)
	x, y, w, h, at := 0.42, 0.10, 0.12, 0.18, int64(4500)
	require.Equal(t, api.FaceCreateRequest{AssetID: "asset_1", BoundingBox: &api.BoundingBoxInput{X: &x, Y: &y, Width: &w, Height: &h},
		TimestampMS: &at}, got.Request)
	require.True(t, got.JSON)

	got = parse("--asset", "asset_1", "--box", "0,0,1,1")
	require.Nil(t, got.Request.TimestampMS, "no --at: not a video position")
	require.Empty(t, got.Person)

	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdFacesCreate), map[string][]string{
		"an argument":   {"--asset", "asset_1", "--box", "0,0,1,1", "extra"},
		"no asset":      {"--box", "0,0,1,1"},
		"no box":        {"--asset", "asset_1"},
		"three numbers": {"--asset", "asset_1", "--box", "0,0,1"},
		"not a number":  {"--asset", "asset_1", "--box", "0,0,1,x"},
	})
}

func TestFacesAssignParsesItsOptions(t *testing.T) {
	parse := func(args ...string) *FacesAssignOptions { return cmdtest.Parse(t, NewCmdFacesAssign, "", args...) }
	got := parse("--library", "Family", "--json", "Ann", "face_1", "face_2")
	require.Equal(t, "Family", got.Library)
	require.Equal(t, "Ann", got.Person)
	require.Equal(t, []string{"face_1", "face_2"}, got.Faces)
	require.True(t, got.JSON)

	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdFacesAssign), map[string][]string{
		"no person": {},
		"no face":   {"Ann"},
	})
}

func TestFacesDeleteParsesItsOptions(t *testing.T) {
	parse := func(args ...string) *FacesDeleteOptions { return cmdtest.Parse(t, NewCmdFacesDelete, "", args...) }
	got := parse("face_1", "face_2")
	require.Equal(t, []string{"face_1", "face_2"}, got.IDs)
	require.False(t, got.JSON)

	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdFacesDelete), map[string][]string{
		"no face": {},
	})
}
