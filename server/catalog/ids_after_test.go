package catalog

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestIDAfterSortsAfterThePreviousID(t *testing.T) {
	now := time.Date(2026, 11, 23, 1, 0, 0, 0, time.UTC)
	later := NewID(PrefixEvent, now.Add(time.Hour))
	for _, prev := range []string{"", NewID(PrefixEvent, now.Add(-time.Hour)), later,
		PrefixEvent + "01m82zkn83yyf7krbq91tc7d8z", PrefixEvent + "01m82zkn83zzzzzzzzzzzzzzzz"} {
		id := IDAfter(PrefixEvent, now, prev)
		require.True(t, HasPrefix(id, PrefixEvent), id)
		require.Greater(t, id, prev)
	}
	require.Greater(t, IDAfter(PrefixEvent, now, later), later, "a clock behind the last id still moves forward")
}
