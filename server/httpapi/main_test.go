package httpapi_test

import (
	"os"
	"testing"

	"github.com/photoctl/photoctl/server/servertest"
)

// TestMain lets servertest run the tests on PostgreSQL when
// PHOTOCTL_TEST_STORE=postgres (it drops the test databases at the end).
func TestMain(m *testing.M) { os.Exit(servertest.Main(m)) }

// mapped returns f of each element of xs (the ids of a listing, say).
func mapped[T, V any](xs []T, f func(T) V) []V {
	out := make([]V, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}
