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

func TestPeopleListParsesItsOptions(t *testing.T) {
	parse := func(args ...string) *ListOptions { return cmdtest.Parse(t, NewCmdList, "", args...) }
	got := parse("--library", "Family", "--id", "person_1,person_2", "--name", "ann", "--named",
		"--asset", "asset_1", "--album", "Summer 2024", "--include-unverified", "--no-hidden", "--json")
	require.Equal(t, "Family", got.Library)
	require.Equal(t, "Summer 2024", got.Album)
	named := true
	require.Equal(t, client.PersonQuery{IDs: []string{"person_1", "person_2"}, Name: "ann", Named: &named,
		AssetID: "asset_1", IncludeUnverified: true}, got.Query)
	require.True(t, got.NoHidden)
	require.True(t, got.JSON)

	got = parse("--unnamed")
	require.False(t, *got.Query.Named)
	got = parse()
	require.Nil(t, got.Query.Named)

	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdList), map[string][]string{
		"an argument":       {"extra"},
		"named and unnamed": {"--named", "--unnamed"},
	})
}

func TestPeopleGetParsesItsOptions(t *testing.T) {
	parse := func(args ...string) *GetOptions { return cmdtest.Parse(t, NewCmdGet, "", args...) }
	got := parse("--library", "Family", "--json", "Ann", "person_1")
	require.Equal(t, []string{"Ann", "person_1"}, got.IDs)
	require.Equal(t, "Family", got.Library)
	require.True(t, got.JSON)

	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdGet), map[string][]string{
		"no person": {},
	})
}

func TestPeopleCreateParsesItsOptions(t *testing.T) {
	parse := func(args ...string) *CreateOptions { return cmdtest.Parse(t, NewCmdCreate, "", args...) }
	got := parse("--library", "Family", "--birth-date", "1990-04-01", "--json", "Ann")
	require.Equal(t, "Family", got.Library)
	require.Equal(t, "Ann", got.Name)
	require.Equal(t, "1990-04-01", got.BirthDate)
	require.True(t, got.JSON)

	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdCreate), map[string][]string{
		"no name":   {},
		"two names": {"Ann", "Bob"},
	})
}

func TestPeopleRenameParsesItsOptions(t *testing.T) {
	parse := func(args ...string) *UpdateOptions { return cmdtest.Parse(t, NewCmdRename, "", args...) }
	got := parse("--library", "Family", "--json", "person_1", "Ann")
	require.Equal(t, "Family", got.Library)
	require.Equal(t, []string{"person_1"}, got.People)
	name := "Ann"
	require.Equal(t, api.PersonUpdateRequest{Name: api.Optional[string]{Set: true, Value: &name}}, got.Update)
	require.Equal(t, "Renamed", got.Verb)
	require.True(t, got.JSON)

	got = parse("--clear", "person_1")
	require.Equal(t, api.PersonUpdateRequest{Name: api.Optional[string]{Set: true}}, got.Update)

	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdRename), map[string][]string{
		"no person":        {},
		"no name":          {"person_1"},
		"name and --clear": {"--clear", "person_1", "Ann"},
		"three arguments":  {"person_1", "Ann", "Bob"},
	})
}

func TestPeopleSetFlagParsesItsOptions(t *testing.T) {
	yes, no := true, false
	for _, c := range []struct {
		name, field string
		value       bool
		want        api.PersonUpdateRequest
	}{
		{"hide", "is_hidden", true, api.PersonUpdateRequest{IsHidden: api.Optional[bool]{Set: true, Value: &yes}}},
		{"unfavorite", "is_favorite", false, api.PersonUpdateRequest{IsFavorite: api.Optional[bool]{Set: true, Value: &no}}},
	} {
		got := cmdtest.Parse(t, func(f *cmdutil.Factory, runF func(*UpdateOptions) error) *cli.Command {
			return NewCmdSetFlag(f, runF, c.name, "usage", c.field, c.value)
		}, "", "--library", "Family", "person_1", "Ann")
		require.Equal(t, "Family", got.Library)
		require.Equal(t, []string{"person_1", "Ann"}, got.People)
		require.Equal(t, c.want, got.Update)
		require.Equal(t, "Updated", got.Verb)
		require.False(t, got.JSON)
	}

	cmdtest.RequireUsageErrors(t, func(f *cmdutil.Factory) *cli.Command {
		return NewCmdSetFlag(f, nil, "hide", "usage", "is_hidden", true)
	}, map[string][]string{"no person": {}})
}

func TestPeopleMergeParsesItsOptions(t *testing.T) {
	parse := func(args ...string) *MergeOptions { return cmdtest.Parse(t, NewCmdMerge, "", args...) }
	got := parse("--library", "Family", "--json", "Ann", "person_2", "person_3")
	require.Equal(t, "Family", got.Library)
	require.Equal(t, []string{"Ann", "person_2", "person_3"}, got.People)
	require.True(t, got.JSON)

	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdMerge), map[string][]string{
		"no person":  {},
		"one person": {"Ann"},
	})
}
