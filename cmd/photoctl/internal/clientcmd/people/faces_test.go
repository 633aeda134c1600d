package people

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdtest"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

func TestFacesListParsesItsOptions(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	var got *FacesListOptions
	cmd := NewCmdFacesList(f, func(o *FacesListOptions) error { got = o; return nil })
	require.NoError(t, cmdtest.Run(t, cmd, "--library", "Family", "--asset", "asset_1", "--person", "Ann",
		"--id", "face_1", "--id", "face_2", "--json"))
	require.NotNil(t, got)
	require.Equal(t, "Family", got.Library)
	require.Equal(t, "Ann", got.Person)
	require.Equal(t, client.FaceQuery{AssetID: "asset_1", IDs: []string{"face_1", "face_2"}}, got.Query)
	require.True(t, got.JSON)

	cmdtest.RequireUsageErrors(t, func(f *cmdutil.Factory) *cli.Command { return NewCmdFacesList(f, nil) }, map[string][]string{
		"an argument": {"extra"},
	})
}

func TestFacesCreateParsesItsOptions(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	var got *FacesCreateOptions
	cmd := NewCmdFacesCreate(f, func(o *FacesCreateOptions) error { got = o; return nil })
	require.NoError(t, cmdtest.Run(t, cmd, "--library", "Family", "--asset", "asset_1", "--box", "0.42, 0.10,0.12,0.18",
		"--person", "Ann", "--at", "4500", "--json"))
	require.NotNil(t, got)
	require.Equal(t, "Family", got.Library)
	require.Equal(t, "Ann", got.Person)
	x, y, w, h, at := 0.42, 0.10, 0.12, 0.18, int64(4500)
	require.Equal(t, api.FaceCreateRequest{AssetID: "asset_1", BoundingBox: &api.BoundingBoxInput{X: &x, Y: &y, Width: &w, Height: &h},
		TimestampMS: &at}, got.Request)
	require.True(t, got.JSON)

	require.NoError(t, cmdtest.Run(t, cmd, "--asset", "asset_1", "--box", "0,0,1,1"))
	require.Nil(t, got.Request.TimestampMS, "no --at: not a video position")
	require.Empty(t, got.Person)

	cmdtest.RequireUsageErrors(t, func(f *cmdutil.Factory) *cli.Command { return NewCmdFacesCreate(f, nil) }, map[string][]string{
		"an argument":   {"--asset", "asset_1", "--box", "0,0,1,1", "extra"},
		"no asset":      {"--box", "0,0,1,1"},
		"no box":        {"--asset", "asset_1"},
		"three numbers": {"--asset", "asset_1", "--box", "0,0,1"},
		"not a number":  {"--asset", "asset_1", "--box", "0,0,1,x"},
	})
}

func TestFacesAssignParsesItsOptions(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	var got *FacesAssignOptions
	cmd := NewCmdFacesAssign(f, func(o *FacesAssignOptions) error { got = o; return nil })
	require.NoError(t, cmdtest.Run(t, cmd, "--library", "Family", "--json", "Ann", "face_1", "face_2"))
	require.NotNil(t, got)
	require.Equal(t, "Family", got.Library)
	require.Equal(t, "Ann", got.Person)
	require.Equal(t, []string{"face_1", "face_2"}, got.Faces)
	require.True(t, got.JSON)

	cmdtest.RequireUsageErrors(t, func(f *cmdutil.Factory) *cli.Command { return NewCmdFacesAssign(f, nil) }, map[string][]string{
		"no person": {},
		"no face":   {"Ann"},
	})
}

func TestFacesDeleteParsesItsOptions(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	var got *FacesDeleteOptions
	cmd := NewCmdFacesDelete(f, func(o *FacesDeleteOptions) error { got = o; return nil })
	require.NoError(t, cmdtest.Run(t, cmd, "face_1", "face_2"))
	require.NotNil(t, got)
	require.Equal(t, []string{"face_1", "face_2"}, got.IDs)
	require.False(t, got.JSON)

	cmdtest.RequireUsageErrors(t, func(f *cmdutil.Factory) *cli.Command { return NewCmdFacesDelete(f, nil) }, map[string][]string{
		"no face": {},
	})
}
