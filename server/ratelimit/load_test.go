package ratelimit

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestAllowConcurrent(t *testing.T) {
	const (
		goroutines = 16
		keys       = 40
		perKey     = 20 // attempts per goroutine per key
		burst      = 50
	)
	// The clock is frozen, so no refill happens: exactly burst unit
	// requests must succeed on every key, whatever the interleaving.
	clock := newFakeClock()
	l := New(Config{Rate: 1, Burst: burst}, clock.Now)

	var allowed [keys]atomic.Int64
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for i := range keys * perKey {
				k := (i + g) % keys
				if ok, retry := l.Allow(fmt.Sprintf("user-%d", k), 1); ok {
					allowed[k].Add(1)
				} else if retry <= 0 {
					t.Errorf("refused with non-positive retryAfter %v", retry)
				}
			}
		})
	}
	wg.Wait()
	for k := range keys {
		require.EqualValues(t, burst, allowed[k].Load(), "key %d", k)
	}

	// The same under a real clock, for the race detector.
	l = New(Config{Rate: 1e6, Burst: 10}, nil)
	for g := range goroutines {
		wg.Go(func() {
			for i := range 2000 {
				l.Allow(fmt.Sprintf("user-%d", (i*7+g)%300), float64(i%4))
			}
		})
	}
	wg.Wait()
}

func TestEvictionKeepsMapSmall(t *testing.T) {
	clock := newFakeClock()
	// A drained bucket is full again after 100ms.
	l := New(Config{Rate: 10, Burst: 1}, clock.Now)

	const n = 100_000
	maxSize := 0
	for i := range n {
		ok, _ := l.Allow(fmt.Sprintf("visitor-%d", i), 1)
		require.True(t, ok, "a new key starts with a full bucket")
		clock.Advance(time.Millisecond)
		maxSize = max(maxSize, l.size())
	}
	// At most ~100 buckets are non-full at any time; sweeping lets each
	// shard hold about twice its non-full buckets plus minSweepInterval.
	t.Logf("max buckets held: %d", maxSize)
	require.LessOrEqual(t, maxSize, 2*100+numShards*minSweepInterval)
}

func TestEvictionKeepsNonFullBuckets(t *testing.T) {
	clock := newFakeClock()
	l := New(Config{Rate: 1, Burst: 1}, clock.Now)

	ok, _ := l.Allow("victim", 1)
	require.True(t, ok)

	// Many sweeps run, but with the clock frozen no bucket is full again.
	const others = 10_000
	for i := range others {
		ok, _ := l.Allow(fmt.Sprintf("other-%d", i), 1)
		require.True(t, ok)
	}
	require.Equal(t, others+1, l.size())

	ok, retry := l.Allow("victim", 1)
	require.False(t, ok, "the drained bucket survived the sweeps")
	require.Equal(t, time.Second, retry)

	// Once they have refilled, the next sweep of each shard drops them.
	// Hammer one key per shard until every shard has swept.
	clock.Advance(time.Second)
	hot := map[uint32]string{}
	for i := 0; len(hot) < numShards; i++ {
		key := fmt.Sprintf("hot-%d", i)
		hot[shardIndex(key)] = key
	}
	for range others/numShards + minSweepInterval {
		for _, key := range hot {
			l.Allow(key, 1)
		}
	}
	require.Equal(t, numShards, l.size(), "only the drained hot keys remain")
}

func BenchmarkAllowParallel(b *testing.B) {
	keys := make([]string, 1000)
	for i := range keys {
		keys[i] = fmt.Sprintf("user-%d", i)
	}
	l := New(Config{Rate: 100, Burst: 50}, nil)
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			l.Allow(keys[i%len(keys)], 1)
			i += 7
		}
	})
}
