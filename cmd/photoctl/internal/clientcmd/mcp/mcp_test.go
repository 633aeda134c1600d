package mcp

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdtest"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
)

func TestMCPParsesItsOptions(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	var got *Options
	cmd := NewCmdMCP(f, func(o *Options) error { got = o; return nil })
	require.NoError(t, cmdtest.Run(t, cmd, "--server", "http://127.0.0.1:2283", "--api-key", "apikey_x"))
	require.NotNil(t, got)
	require.NotNil(t, got.IO)
	require.NotNil(t, got.Conn)

	cmdtest.RequireUsageErrors(t, func(f *cmdutil.Factory) *cli.Command { return NewCmdMCP(f, nil) }, map[string][]string{
		"an argument": {"extra"},
	})
}
