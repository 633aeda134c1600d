package cmdtest

import (
	"os"
	"strings"
	"testing"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
)

// Isolate gives the test a clean environment: no PHOTOCTL_* variables,
// and XDG config and data homes in fresh temporary directories, which it
// returns, so that a command's configuration is the built-in one and its
// flags. Tests that call it cannot run in parallel (t.Setenv).
func Isolate(t testing.TB) (configHome, dataHome string) {
	t.Helper()
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, cmdutil.EnvPrefix) {
			t.Setenv(name, "") // restores the original value after the test
			if err := os.Unsetenv(name); err != nil {
				t.Fatal(err)
			}
		}
	}
	configHome, dataHome = t.TempDir(), t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", configHome)
	t.Setenv("XDG_DATA_HOME", dataHome)
	return configHome, dataHome
}
