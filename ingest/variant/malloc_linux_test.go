//go:build linux && cgo

package variant

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestTuneMallocLeavesAnEnvironmentsOwnTuning(t *testing.T) {
	t.Setenv("GLIBC_TUNABLES", "glibc.malloc.mmap_threshold=1048576")
	require.False(t, tuneMalloc())
	t.Setenv("GLIBC_TUNABLES", "")
	t.Setenv("MALLOC_ARENA_MAX", "2")
	require.False(t, tuneMalloc())
}
