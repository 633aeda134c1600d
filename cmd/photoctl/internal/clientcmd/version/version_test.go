package version

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdtest"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
)

func TestVersionParsesItsOptions(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	var got *Options
	cmd := NewCmdVersion(f, func(o *Options) error { got = o; return nil })
	require.NoError(t, cmdtest.Run(t, cmd, "--json"))
	require.NotNil(t, got)
	require.True(t, got.JSON)
	require.NotNil(t, got.IO)
	require.NotNil(t, got.Conn)

	cmdtest.RequireUsageErrors(t, func(f *cmdutil.Factory) *cli.Command { return NewCmdVersion(f, nil) }, map[string][]string{
		"an argument": {"extra"},
	})
}
