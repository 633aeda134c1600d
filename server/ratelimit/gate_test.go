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

func TestGateBoundsEachUsersRequestsInFlight(t *testing.T) {
	g := NewGate(3)
	var peak [4]atomic.Int64
	var in [4]atomic.Int64
	var wg sync.WaitGroup
	for i := range 64 {
		wg.Go(func() {
			u := i % 4
			leave, err := g.Enter(context.Background(), fmt.Sprint("user", u))
			require.NoError(t, err)
			n := in[u].Add(1)
			for p := peak[u].Load(); n > p && !peak[u].CompareAndSwap(p, n); p = peak[u].Load() {
			}
			time.Sleep(time.Millisecond)
			in[u].Add(-1)
			leave()
		})
	}
	wg.Wait()
	for u := range peak {
		require.EqualValues(t, 3, peak[u].Load(), "user%d", u)
	}
	require.Empty(t, g.users, "every place is given back")
}

// A user whose places are all taken does not hold up another user, and
// their own waiting requests run in order.
func TestGateQueuesOnlyTheBusyUser(t *testing.T) {
	g := NewGate(1)
	hold, err := g.Enter(context.Background(), "flood")
	require.NoError(t, err)
	var mu sync.Mutex
	var order []int
	var wg sync.WaitGroup
	for i := range 5 {
		wg.Go(func() {
			leave, err := g.Enter(context.Background(), "flood")
			require.NoError(t, err)
			mu.Lock()
			order = append(order, i)
			mu.Unlock()
			leave()
		})
		require.Eventually(t, func() bool {
			g.mu.Lock()
			defer g.mu.Unlock()
			return len(g.users["flood"].waiting) == i+1
		}, time.Second, time.Millisecond)
	}
	calm, err := g.Enter(context.Background(), "calm")
	require.NoError(t, err, "another user enters at once")
	calm()
	hold()
	wg.Wait()
	require.Equal(t, []int{0, 1, 2, 3, 4}, order)
	require.Empty(t, g.users)
}

func TestGateWaiterThatGivesUpLeavesNoTrace(t *testing.T) {
	g := NewGate(1)
	hold, err := g.Enter(context.Background(), "a")
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	leave, err := g.Enter(ctx, "a")
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.Nil(t, leave)
	require.Empty(t, g.users["a"].waiting)
	hold()
	require.Empty(t, g.users)
	leave, err = g.Enter(context.Background(), "a")
	require.NoError(t, err, "the place came back")
	leave()
}

// Many requests of a few users, some giving up at random moments: no
// place is lost or doubled, whatever the interleaving (run with -race).
func TestGateUnderChurn(t *testing.T) {
	g := NewGate(2)
	var in [7]atomic.Int64
	var wg sync.WaitGroup
	for i := range 400 {
		wg.Go(func() {
			u := i % 7
			ctx, cancel := context.WithTimeout(context.Background(), time.Duration(rand.IntN(3000))*time.Microsecond)
			defer cancel()
			leave, err := g.Enter(ctx, fmt.Sprint("user", u))
			if err != nil {
				return
			}
			require.LessOrEqual(t, in[u].Add(1), int64(2))
			time.Sleep(time.Duration(rand.IntN(200)) * time.Microsecond)
			in[u].Add(-1)
			leave()
		})
	}
	wg.Wait()
	require.Empty(t, g.users)
}

// A bounded gate lets a user's requests wait up to its queue, refuses the
// next at once, and takes them again once the queue has room; another
// user is not affected.
func TestBoundedGateRefusesBeyondItsQueue(t *testing.T) {
	g := NewBoundedGate(2, 3)
	var leaves []func()
	for range 2 {
		leave, err := g.Enter(context.Background(), "flood")
		require.NoError(t, err)
		leaves = append(leaves, leave)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	entered := make(chan func(), 3)
	for range 3 {
		go func() {
			leave, err := g.Enter(ctx, "flood")
			if err == nil {
				entered <- leave
			}
		}()
	}
	require.Eventually(t, func() bool {
		g.mu.Lock()
		defer g.mu.Unlock()
		return len(g.users["flood"].waiting) == 3
	}, time.Second, time.Millisecond)
	_, err := g.Enter(context.Background(), "flood")
	require.ErrorIs(t, err, ErrQueueFull)
	other, err := g.Enter(context.Background(), "neighbour")
	require.NoError(t, err, "another user has places of their own")
	other()

	leaves[0]()
	next := <-entered // the oldest waiting request runs
	waiting, err := enterSoon(g, "flood")
	require.NoError(t, err, "the queue has room again")
	leaves[1]()
	second := <-entered
	next()
	third := <-entered
	second()
	fourth := <-waiting
	third()
	fourth()
	require.Empty(t, g.users, "every place is given back")
}

// enterSoon starts Enter in a goroutine once the call has queued, and
// returns the channel its leave arrives on.
func enterSoon(g *Gate, key string) (chan func(), error) {
	out := make(chan func(), 1)
	errs := make(chan error, 1)
	go func() {
		leave, err := g.Enter(context.Background(), key)
		if err != nil {
			errs <- err
			return
		}
		out <- leave
	}()
	select {
	case err := <-errs:
		return nil, err
	case <-time.After(20 * time.Millisecond):
		return out, nil
	}
}
