package auth

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// params returns the algorithm, version and cost part of a PHC string.
func params(t *testing.T, encoded string) string {
	t.Helper()
	parts := strings.Split(encoded, "$")
	require.Len(t, parts, 6, encoded)
	return strings.Join(parts[:4], "$")
}

func TestPasswordHashesVerify(t *testing.T) {
	h, err := HashPassword("correct horse")
	require.NoError(t, err)
	ok, err := VerifyPassword(h, "correct horse")
	require.NoError(t, err)
	require.True(t, ok)
	ok, err = VerifyPassword(h, "battery staple")
	require.NoError(t, err)
	require.False(t, ok)
}

// An unknown e-mail verifies against dummyHash: it must cost what a real
// account's hash costs, so the two answers take the same time.
func TestDummyHashCostsWhatAHashCosts(t *testing.T) {
	h, err := HashPassword("anything")
	require.NoError(t, err)
	require.Equal(t, params(t, h), params(t, dummyHash))
	ok, err := VerifyPassword(dummyHash, "anything")
	require.NoError(t, err)
	require.False(t, ok)
}
