package auth

import (
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

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
	h, err := HashPassword("correct horse", PasswordCost{})
	require.NoError(t, err)
	ok, err := VerifyPassword(h, "correct horse")
	require.NoError(t, err)
	require.True(t, ok)
	ok, err = VerifyPassword(h, "battery staple")
	require.NoError(t, err)
	require.False(t, ok)
}

// Every account is hashed at OWASP's cost unless code asks for another;
// the hash records its cost, so a cheaper one still verifies, and a cost
// below argon2id's minimum is refused.
func TestPasswordCost(t *testing.T) {
	h, err := HashPassword("correct horse", PasswordCost{})
	require.NoError(t, err)
	require.Equal(t, "$argon2id$v=19$m=19456,t=2,p=1", params(t, h))
	h, err = HashPassword("correct horse", PasswordCost{MemoryKiB: 64, Passes: 1})
	require.NoError(t, err)
	require.Equal(t, "$argon2id$v=19$m=64,t=1,p=1", params(t, h))
	ok, err := VerifyPassword(h, "correct horse")
	require.NoError(t, err)
	require.True(t, ok)
	for _, c := range []PasswordCost{{MemoryKiB: 4, Passes: 1}, {MemoryKiB: 64}} {
		_, err = HashPassword("correct horse", c)
		require.Error(t, err, "%+v", c)
	}
}

// An unknown e-mail verifies against dummyHash: it must cost what a real
// account's hash costs, so the two answers take the same time.
func TestDummyHashCostsWhatAHashCosts(t *testing.T) {
	h, err := HashPassword("anything", PasswordCost{})
	require.NoError(t, err)
	require.Equal(t, params(t, h), params(t, dummyHash))
	ok, err := VerifyPassword(dummyHash, "anything")
	require.NoError(t, err)
	require.False(t, ok)
}

// A sign-in's 19 MiB argon2 work area goes back to the operating system
// soon after, instead of staying resident until the collector's next cycle.
func TestPasswordScratchIsReturnedToTheOS(t *testing.T) {
	h, err := HashPassword("correct horse", PasswordCost{})
	require.NoError(t, err)
	resident := func() uint64 { // what the runtime holds, less what it returned
		s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
		metrics.Read(s)
		return s[0].Value.Uint64() - s[1].Value.Uint64()
	}
	// The server's default pacing (runtime.gc_percent): left alone, the
	// collector would not run again for a while.
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	debug.FreeOSMemory()
	before := resident()
	ok, err := VerifyPassword(h, "correct horse")
	require.NoError(t, err)
	require.True(t, ok)
	require.Eventually(t, func() bool { return resident() < before+4<<20 }, 5*time.Second, 20*time.Millisecond,
		"the argon2 work area (19 MiB) stays resident")
}
