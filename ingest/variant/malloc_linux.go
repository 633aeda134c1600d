//go:build linux && cgo

package variant

/*
#include <malloc.h>

// tune_malloc keeps freed buffers of up to 32 MiB in the heap for reuse.
// glibc otherwise serves each large buffer libvips asks for (decoded
// strips, regions, encoder state: a few MiB each, every image) with a
// fresh mmap and unmaps it on free, so every render pays the page faults
// and zeroing of new memory again: measured on a 12 MP JPEG, a quarter of
// the CPU time of a thumbnail and preview (250 -> 187 ms). The heap keeps
// at most 64 MiB free at its top before returning memory to the system.
static int tune_malloc(void) {
#ifdef __GLIBC__
	return mallopt(M_MMAP_THRESHOLD, 32 << 20) && mallopt(M_TRIM_THRESHOLD, 64 << 20);
#else
	return 0;
#endif
}
*/
import "C"

import (
	"os"
	"strings"
)

// tuneMalloc applies tune_malloc unless the environment already tunes
// glibc's malloc (GLIBC_TUNABLES, MALLOC_MMAP_THRESHOLD_, ...). It reports
// whether it changed anything.
func tuneMalloc() bool {
	if strings.Contains(os.Getenv("GLIBC_TUNABLES"), "glibc.malloc.") {
		return false
	}
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "MALLOC_") {
			return false
		}
	}
	return C.tune_malloc() != 0
}
