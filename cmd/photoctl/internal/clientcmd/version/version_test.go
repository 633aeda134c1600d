package version

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdtest"
)

func TestVersionParsesItsOptions(t *testing.T) {
	parse := func(args ...string) *Options { return cmdtest.Parse(t, NewCmdVersion, "", args...) }
	got := parse("--json")
	require.True(t, got.JSON)
	require.NotNil(t, got.IO)
	require.NotNil(t, got.Conn)

	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdVersion), map[string][]string{
		"an argument": {"extra"},
	})
}
