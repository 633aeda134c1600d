package cmdutil

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/client"
)

// Two API keys for one server never share cached names: each may see
// other libraries.
func TestNameCacheIsKeptPerAPIKey(t *testing.T) {
	conn := func(key string) *APIConn {
		c, err := client.New(client.Options{Server: "http://127.0.0.1:2283", APIKey: key})
		require.NoError(t, err)
		return &APIConn{Client: c, Credential: "api_key", keyDigest: apiKeyDigest(key)}
	}
	a, b := conn("pk_one"), conn("pk_two")
	require.NotEqual(t, nameCachePath("/c", a, "libraries", ""), nameCachePath("/c", b, "libraries", ""))
	require.Equal(t, nameCachePath("/c", a, "libraries", ""), nameCachePath("/c", conn("pk_one"), "libraries", ""))
	require.NotContains(t, nameCachePath("/c", a, "libraries", ""), "pk_one")
}
