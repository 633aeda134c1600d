package ratelimit

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestGateBoundsRequestsInFlight(t *testing.T) {
	g := NewGate(3)
	var in, peak atomic.Int64
	var wg sync.WaitGroup
	for i := range 64 {
		wg.Go(func() {
			leave, err := g.Enter(context.Background(), fmt.Sprint("user", i%4))
			require.NoError(t, err)
			n := in.Add(1)
			for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
			}
			time.Sleep(time.Millisecond)
			in.Add(-1)
			leave()
		})
	}
	wg.Wait()
	require.EqualValues(t, 3, peak.Load())
	require.Equal(t, 3, g.free, "every place is given back")
}

// A user flooding the gate does not make another user wait behind the
// whole flood: freed places alternate between the users waiting.
func TestGateServesUsersInTurn(t *testing.T) {
	g := NewGate(1)
	hold, err := g.Enter(context.Background(), "flood")
	require.NoError(t, err)
	var mu sync.Mutex
	var order []string
	var wg sync.WaitGroup
	enter := func(key string) {
		wg.Go(func() {
			leave, err := g.Enter(context.Background(), key)
			require.NoError(t, err)
			mu.Lock()
			order = append(order, key)
			mu.Unlock()
			leave()
		})
	}
	waiting := func(n int) {
		require.Eventually(t, func() bool {
			g.mu.Lock()
			defer g.mu.Unlock()
			total := 0
			for _, q := range g.queues {
				total += len(q)
			}
			return total == n
		}, time.Second, time.Millisecond)
	}
	for i := range 10 {
		enter("flood")
		waiting(i + 1)
	}
	enter("calm")
	waiting(11)
	hold()
	wg.Wait()
	require.Len(t, order, 11)
	require.Equal(t, []string{"flood", "calm"}, order[:2], "the calm user is served second, not eleventh")
}

func TestGateWaiterThatGivesUpLeavesNoTrace(t *testing.T) {
	g := NewGate(1)
	hold, err := g.Enter(context.Background(), "a")
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	leave, err := g.Enter(ctx, "b")
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.Nil(t, leave)
	require.Empty(t, g.queues)
	require.Empty(t, g.turn)
	hold()
	leave, err = g.Enter(context.Background(), "c")
	require.NoError(t, err, "the place came back")
	leave()
	require.Equal(t, 1, g.free)
}

// Many users, some giving up at random moments: no place is lost or
// doubled, whatever the interleaving (run with -race).
func TestGateUnderChurn(t *testing.T) {
	g := NewGate(2)
	var in atomic.Int64
	var wg sync.WaitGroup
	for i := range 400 {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), time.Duration(rand.IntN(3000))*time.Microsecond)
			defer cancel()
			leave, err := g.Enter(ctx, fmt.Sprint("user", i%7))
			if err != nil {
				return
			}
			require.LessOrEqual(t, in.Add(1), int64(2))
			time.Sleep(time.Duration(rand.IntN(200)) * time.Microsecond)
			in.Add(-1)
			leave()
		})
	}
	wg.Wait()
	require.Equal(t, 2, g.free)
	require.Empty(t, g.queues)
	require.Empty(t, g.turn)
}
