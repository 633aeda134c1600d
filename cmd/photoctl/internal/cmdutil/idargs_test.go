package cmdutil

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

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
