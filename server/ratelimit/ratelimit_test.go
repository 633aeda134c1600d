package ratelimit

import (
	"math"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// fakeClock is a manually advanced clock, safe for concurrent use.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{t: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func TestAllowBurstThenRefuse(t *testing.T) {
	clock := newFakeClock()
	l := New(Config{Rate: 2, Burst: 5}, clock.Now)

	for i := range 5 {
		ok, retry := l.Allow("alice", 1)
		require.True(t, ok, "request %d within burst", i)
		require.Zero(t, retry)
	}
	ok, retry := l.Allow("alice", 1)
	require.False(t, ok)
	require.Equal(t, 500*time.Millisecond, retry)

	// A refused request charges nothing: asking again gives the same answer.
	ok, retry = l.Allow("alice", 1)
	require.False(t, ok)
	require.Equal(t, 500*time.Millisecond, retry)

	clock.Advance(499 * time.Millisecond)
	ok, retry = l.Allow("alice", 1)
	require.False(t, ok)
	require.Equal(t, time.Millisecond, retry)

	clock.Advance(time.Millisecond)
	ok, _ = l.Allow("alice", 1)
	require.True(t, ok)
	ok, _ = l.Allow("alice", 1)
	require.False(t, ok)
}

func TestAllowWeightedCost(t *testing.T) {
	clock := newFakeClock()
	l := New(Config{Rate: 1, Burst: 10}, clock.Now)

	ok, _ := l.Allow("bob", 4)
	require.True(t, ok)
	ok, _ = l.Allow("bob", 4)
	require.True(t, ok)

	// 2 tokens left: a cost of 3 needs one more second and is not charged.
	ok, retry := l.Allow("bob", 3)
	require.False(t, ok)
	require.Equal(t, time.Second, retry)

	ok, _ = l.Allow("bob", 2)
	require.True(t, ok)

	// Fractional costs are rounded up to whole tokens.
	clock.Advance(time.Second)
	ok, _ = l.Allow("bob", 0.5)
	require.True(t, ok)
	ok, retry = l.Allow("bob", 0.5)
	require.False(t, ok)
	require.Equal(t, time.Second, retry)
}

func TestAllowRefillOverTime(t *testing.T) {
	clock := newFakeClock()
	l := New(Config{Rate: 3, Burst: 6}, clock.Now)

	ok, _ := l.Allow("carol", 6)
	require.True(t, ok)
	ok, _ = l.Allow("carol", 1)
	require.False(t, ok)

	// One second refills Rate tokens.
	clock.Advance(time.Second)
	ok, _ = l.Allow("carol", 3)
	require.True(t, ok)
	ok, retry := l.Allow("carol", 1)
	require.False(t, ok)
	require.Equal(t, time.Second/3, retry)

	// A long idle period refills up to Burst, never beyond.
	clock.Advance(time.Hour)
	ok, _ = l.Allow("carol", 6)
	require.True(t, ok)
	ok, _ = l.Allow("carol", 1)
	require.False(t, ok)
}

func TestAllowKeysIndependent(t *testing.T) {
	clock := newFakeClock()
	l := New(Config{Rate: 1, Burst: 2}, clock.Now)

	ok, _ := l.Allow("dave", 2)
	require.True(t, ok)
	ok, _ = l.Allow("dave", 1)
	require.False(t, ok)

	ok, _ = l.Allow("erin", 2)
	require.True(t, ok, "another key has its own full bucket")
	ok, _ = l.Allow("", 2)
	require.True(t, ok, "the empty key is a key like any other")
}

func TestAllowClampsCostToBurst(t *testing.T) {
	clock := newFakeClock()
	l := New(Config{Rate: 1, Burst: 3}, clock.Now)

	ok, _ := l.Allow("frank", 100)
	require.True(t, ok, "a cost above Burst passes on a full bucket")

	ok, retry := l.Allow("frank", 100)
	require.False(t, ok)
	require.Equal(t, 3*time.Second, retry, "clamped cost waits for a full bucket, not forever")

	clock.Advance(retry)
	ok, _ = l.Allow("frank", math.Inf(1))
	require.True(t, ok)
}

func TestAllowNonPositiveCostIsFree(t *testing.T) {
	clock := newFakeClock()
	l := New(Config{Rate: 1, Burst: 1}, clock.Now)

	ok, _ := l.Allow("gina", 1)
	require.True(t, ok)
	for _, cost := range []float64{0, -1, math.NaN()} {
		ok, retry := l.Allow("gina", cost)
		require.True(t, ok, "cost %v", cost)
		require.Zero(t, retry)
	}
}

func TestAllowUnlimitedRate(t *testing.T) {
	l := New(Config{Rate: math.Inf(1), Burst: 1}, nil)
	for range 1000 {
		ok, _ := l.Allow("hank", 5)
		require.True(t, ok)
	}
	require.Zero(t, l.size())
}

func TestNewRejectsInvalidConfig(t *testing.T) {
	for _, cfg := range []Config{
		{Rate: 0, Burst: 1},
		{Rate: -1, Burst: 1},
		{Rate: math.NaN(), Burst: 1},
		{Rate: 1, Burst: 0},
	} {
		require.Panics(t, func() { New(cfg, nil) }, "%+v", cfg)
	}
}

func TestRetryAfterSeconds(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want int
	}{
		{-time.Second, 1},
		{0, 1},
		{time.Nanosecond, 1},
		{200 * time.Millisecond, 1},
		{time.Second, 1},
		{1100 * time.Millisecond, 2},
		{2 * time.Second, 2},
		{2*time.Second + time.Nanosecond, 3},
		{time.Duration(math.MaxInt64), int(math.MaxInt64/time.Second) + 1},
	} {
		require.Equal(t, tc.want, RetryAfterSeconds(tc.d), "%v", tc.d)
	}
}

// Wait answers what Allow would, without charging.
func TestWaitPeeksWithoutCharging(t *testing.T) {
	clock := newFakeClock()
	l := New(Config{Rate: 2, Burst: 3}, clock.Now)
	require.Zero(t, l.Wait("alice", 1), "a key never charged waits for nothing")
	for range 3 {
		require.Zero(t, l.Wait("alice", 1))
		ok, _ := l.Allow("alice", 1)
		require.True(t, ok)
	}
	require.Equal(t, 500*time.Millisecond, l.Wait("alice", 1))
	require.Equal(t, 500*time.Millisecond, l.Wait("alice", 1), "Wait charges nothing")
	require.Equal(t, 1500*time.Millisecond, l.Wait("alice", 3))
	require.Equal(t, 1500*time.Millisecond, l.Wait("alice", 99), "a cost above the burst waits for a full bucket")
	_, retry := l.Allow("alice", 1)
	require.Equal(t, retry, l.Wait("alice", 1), "the same delay Allow gives")
	clock.Advance(500 * time.Millisecond)
	require.Zero(t, l.Wait("alice", 1))
	require.Zero(t, l.Wait("bob", 1))
	require.Zero(t, New(Config{Rate: math.Inf(1), Burst: 1}, clock.Now).Wait("alice", 5))
}

// Reserve queues a request whose tokens come within maxWait instead of
// refusing it: the waits grow by a token's time each, and once they would
// pass maxWait the next is refused, charged nothing, and told when a
// request would be queued again.
func TestReserveQueuesWithinMaxWait(t *testing.T) {
	clock := newFakeClock()
	l := New(Config{Rate: 10, Burst: 2}, clock.Now)
	for range 2 {
		delay, ok := l.Reserve("alice", 1, time.Second)
		require.True(t, ok)
		require.Zero(t, delay, "the burst passes at once")
	}
	for i := 1; i <= 10; i++ {
		delay, ok := l.Reserve("alice", 1, time.Second)
		require.True(t, ok, "request %d is queued", i)
		require.Equal(t, time.Duration(i)*100*time.Millisecond, delay)
	}
	delay, ok := l.Reserve("alice", 1, time.Second)
	require.False(t, ok, "a wait beyond a second is refused")
	require.Equal(t, 100*time.Millisecond, delay, "one token's time until the queue has room")
	delay, ok = l.Reserve("bob", 1, time.Second)
	require.True(t, ok, "another key has its own bucket")
	require.Zero(t, delay)

	clock.Advance(100 * time.Millisecond)
	delay, ok = l.Reserve("alice", 1, time.Second)
	require.True(t, ok, "the refused request charged nothing")
	require.Equal(t, time.Second, delay)
}
