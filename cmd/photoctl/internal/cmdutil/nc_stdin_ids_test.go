package cmdutil

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestReadStdinIDsTakesLinesOrTheJSONOfAListing(t *testing.T) {
	for in, want := range map[string][]string{
		"asset_1\nasset_2 asset_3\n":             {"asset_1", "asset_2", "asset_3"},
		`[{"id": "asset_1"}, {"id": "asset_2"}]`: {"asset_1", "asset_2"},
		` ["asset_1", "asset_2"]`:                {"asset_1", "asset_2"},
		"":                                       {},
	} {
		ids, fromStdin, err := ReadStdinIDs(strings.NewReader(in))
		require.NoError(t, err, in)
		require.True(t, fromStdin)
		require.Equal(t, want, ids, in)
	}
	for _, in := range []string{`[{"id": "asset_1"}, {"name": "x"}]`, `[1, 2`} {
		_, _, err := ReadStdinIDs(strings.NewReader(in))
		var usage *UsageError
		require.ErrorAs(t, err, &usage, in)
	}
}

func TestIDArgsReadStandardInputOnlyForADash(t *testing.T) {
	a := IDArgs{Args: []string{"asset_1", "asset_2"}, in: strings.NewReader("asset_9")}
	ids, err := a.IDs()
	require.NoError(t, err)
	require.Equal(t, []string{"asset_1", "asset_2"}, ids)

	a = IDArgs{Args: []string{"-"}, in: strings.NewReader("asset_9\n")}
	ids, err = a.IDs()
	require.NoError(t, err)
	require.Equal(t, []string{"asset_9"}, ids)

	a = IDArgs{Args: []string{"-"}, in: strings.NewReader(" \n"), help: "photoctl stacks create"}
	_, err = a.IDs()
	var usage *UsageError
	require.ErrorAs(t, err, &usage)
	require.Equal(t, "nothing on standard input", usage.Error())
	require.Equal(t, "photoctl stacks create", usage.Help)
}
