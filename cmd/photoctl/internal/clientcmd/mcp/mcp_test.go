package mcp

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdtest"
)

func TestMCPParsesItsOptions(t *testing.T) {
	parse := func(args ...string) *Options { return cmdtest.Parse(t, NewCmdMCP, "", args...) }
	got := parse("--server", "http://127.0.0.1:2283", "--api-key", "apikey_x")
	require.NotNil(t, got.IO)
	require.NotNil(t, got.Conn)

	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdMCP), map[string][]string{
		"an argument": {"extra"},
	})
}
