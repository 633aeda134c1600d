package tui

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdtest"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
)

func TestTUIParsesItsOptions(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	var got *Options
	cmd := NewCmdTUI(f, func(o *Options) error { got = o; return nil })
	require.NoError(t, cmdtest.Run(t, cmd, "--library", "Family", "--download-dir", "/tmp/dl"))
	require.NotNil(t, got)
	require.Equal(t, "Family", got.Library)
	require.Equal(t, "/tmp/dl", got.DownloadDir)
	require.Equal(t, "photoctl tui", got.help)
	require.NotNil(t, got.IO)
	require.NotNil(t, got.Conn)

	cmdtest.RequireUsageErrors(t, func(f *cmdutil.Factory) *cli.Command { return NewCmdTUI(f, nil) }, map[string][]string{
		"an argument": {"extra"},
	})
}
