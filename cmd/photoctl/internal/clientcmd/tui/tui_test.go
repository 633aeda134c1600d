package tui

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdtest"
)

func TestTUIParsesItsOptions(t *testing.T) {
	parse := func(args ...string) *Options { return cmdtest.Parse(t, NewCmdTUI, "", args...) }
	got := parse("--library", "Family", "--download-dir", "/tmp/dl")
	require.Equal(t, "Family", got.Library)
	require.Equal(t, "/tmp/dl", got.DownloadDir)
	require.Equal(t, "photoctl tui", got.help)
	require.NotNil(t, got.IO)
	require.NotNil(t, got.Conn)

	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdTUI), map[string][]string{
		"an argument": {"extra"},
	})
}
