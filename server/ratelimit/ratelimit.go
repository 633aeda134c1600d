// Package ratelimit implements a per-key weighted token-bucket limiter, used
// by the HTTP layer for per-user rate limiting.
//
// Every key (for example a user ID) owns an independent token bucket holding
// at most Config.Burst tokens and refilled at Config.Rate tokens per second;
// a new key starts with a full bucket. Each request charges a cost in tokens.
// A request the bucket cannot pay for is refused without charging anything,
// together with the delay after which the same cost would be accepted; the
// HTTP layer turns that into 429 Too Many Requests with a Retry-After header
// (see RetryAfterSeconds).
//
// The buckets themselves are golang.org/x/time/rate Limiters. Keys are spread
// over a fixed number of shards by an FNV-1a hash of the key, each shard with
// its own mutex and map, so concurrent callers with different keys rarely
// contend.
//
// # Memory
//
// A bucket that has refilled to Burst is indistinguishable from a bucket that
// was never created, so it can be dropped without changing any decision.
// Each shard sweeps out such full buckets from inside Allow (no background
// goroutine) once the number of Allow calls on that shard since its last
// sweep reaches the number of buckets that sweep kept (and at least
// minSweepInterval calls). A sweep therefore costs amortised O(1) per call,
// and a shard holds at most the buckets its last sweep kept (all non-full
// then) plus one new bucket per call since: about twice its non-full
// buckets plus minSweepInterval. Memory is thus bounded by recent activity,
// not by the number of distinct keys ever seen. Nothing is swept while a
// shard receives no calls.
package ratelimit

import (
	"fmt"
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/photoctl/photoctl/server/catalog"
)

const (
	// numShards is the number of independently locked maps; a power of two.
	numShards = 32
	// minSweepInterval is the minimum number of Allow calls on a shard
	// between two sweeps of that shard.
	minSweepInterval = 64
)

// Config configures a Limiter.
type Config struct {
	// Rate is the refill rate in tokens per second. It must be > 0;
	// math.Inf(1) disables limiting altogether.
	Rate float64
	// Burst is the bucket size: the most tokens a key can spend at once
	// after being idle. It must be >= 1.
	Burst int
}

// Limiter is a per-key weighted token-bucket rate limiter. It is safe for
// concurrent use by multiple goroutines. Create it with New.
type Limiter struct {
	limit     rate.Limit
	burst     int
	unlimited bool
	now       func() time.Time
	shards    [numShards]shard
}

// shard is one independently locked part of a Limiter's key space.
type shard struct {
	mu      sync.Mutex
	buckets map[string]*rate.Limiter
	calls   int // Allow calls since the last sweep
	nextGap int // calls between the last sweep and the next one
	_       [64]byte
}

// New returns a Limiter with the given configuration. now is the clock used
// to refill buckets; tests pass a fake clock, and nil means time.Now.
// New panics if cfg.Rate is not > 0 or cfg.Burst is < 1: a misconfigured
// limiter is a programming or startup error, not a per-request condition.
func New(cfg Config, now func() time.Time) *Limiter {
	if !(cfg.Rate > 0) {
		panic(fmt.Sprintf("ratelimit: Rate must be > 0, got %v", cfg.Rate))
	}
	if cfg.Burst < 1 {
		panic(fmt.Sprintf("ratelimit: Burst must be >= 1, got %d", cfg.Burst))
	}
	if now == nil {
		now = time.Now
	}
	l := &Limiter{
		limit:     rate.Limit(cfg.Rate),
		burst:     cfg.Burst,
		unlimited: math.IsInf(cfg.Rate, 1),
		now:       now,
	}
	for i := range l.shards {
		l.shards[i].buckets = make(map[string]*rate.Limiter)
		l.shards[i].nextGap = minSweepInterval
	}
	return l
}

// Allow charges cost tokens to key's bucket. If the bucket holds enough
// tokens it deducts them and returns ok=true. Otherwise it charges nothing
// and returns ok=false together with how long until cost tokens will be
// available (always > 0), assuming no other spending on key meanwhile.
//
// Because buckets count whole tokens, a fractional cost is rounded up
// (0.5 costs 1 token). A cost above Burst is clamped to Burst, so that every
// request can eventually pass. A cost <= 0 (or NaN) is always allowed and
// charges nothing; so is everything when Rate is +Inf.
func (l *Limiter) Allow(key string, cost float64) (ok bool, retryAfter time.Duration) {
	delay, ok := l.Reserve(key, cost, 0)
	return ok, delay
}

// Reserve is Allow for a caller that may wait up to maxWait: when the
// bucket will hold cost tokens within maxWait it takes them now and
// returns ok with how long the caller must wait before going on (0 when
// they are there); later than maxWait, it charges nothing and returns
// false with how long until a request would be taken within maxWait
// (always > 0). The tokens of waiting callers are already taken, so the
// callers waiting on a key at once are bounded by Rate × maxWait ÷ cost.
func (l *Limiter) Reserve(key string, cost float64, maxWait time.Duration) (delay time.Duration, ok bool) {
	if l.unlimited || !(cost > 0) {
		return 0, true
	}
	n := l.burst
	if cost < float64(n) {
		n = int(math.Ceil(cost))
	}

	s := &l.shards[shardIndex(key)]
	s.mu.Lock()
	defer s.mu.Unlock()
	// Read the clock under the shard lock so that calls on one bucket see
	// non-decreasing times even with a real clock.
	now := l.now()

	b := s.buckets[key]
	if b == nil {
		b = rate.NewLimiter(l.limit, l.burst)
		s.buckets[key] = b
	}
	// The bucket is only touched under the shard lock, so nothing can
	// reserve between ReserveN and CancelAt, and CancelAt returns exactly
	// the n tokens just taken.
	r := b.ReserveN(now, n)
	delay, ok = r.DelayFrom(now), true
	if delay > maxWait {
		r.CancelAt(now)
		delay, ok = delay-maxWait, false
	}

	s.calls++
	if s.calls >= s.nextGap {
		s.sweep(now, float64(l.burst))
	}
	return delay, ok
}

// Wait returns how long until key's bucket holds cost tokens, without
// charging anything: 0 when Allow would pass now. A key without a bucket
// (never charged, or full and swept) waits 0. It lets a caller refuse
// early, before work that Allow would then refuse anyway.
func (l *Limiter) Wait(key string, cost float64) time.Duration {
	if l.unlimited || !(cost > 0) {
		return 0
	}
	n := min(float64(l.burst), math.Ceil(cost))
	s := &l.shards[shardIndex(key)]
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.buckets[key]
	if b == nil {
		return 0
	}
	missing := n - b.TokensAt(l.now())
	if missing <= 0 {
		return 0
	}
	return time.Duration(math.Ceil(missing / float64(l.limit) * float64(time.Second)))
}

// sweep drops the buckets that are full at now; s.mu must be held.
func (s *shard) sweep(now time.Time, burst float64) {
	for key, b := range s.buckets {
		if b.TokensAt(now) >= burst {
			delete(s.buckets, key)
		}
	}
	s.calls = 0
	s.nextGap = max(len(s.buckets), minSweepInterval)
}

// size returns the number of buckets held by the Limiter (for tests).
func (l *Limiter) size() int {
	total := 0
	for i := range l.shards {
		s := &l.shards[i]
		s.mu.Lock()
		total += len(s.buckets)
		s.mu.Unlock()
	}
	return total
}

// shardIndex returns the shard of key, from its 32-bit FNV-1a hash. The
// hash is computed inline because hash/fnv would allocate per call.
func shardIndex(key string) uint32 {
	const (
		offset32 = 2166136261
		prime32  = 16777619
	)
	h := uint32(offset32)
	for i := 0; i < len(key); i++ {
		h ^= uint32(key[i])
		h *= prime32
	}
	return h % numShards
}

// RetryAfterSeconds rounds a delay up to whole seconds, returning at least 1:
// the value to send in a Retry-After header.
func RetryAfterSeconds(d time.Duration) int {
	return (&catalog.RateLimitedError{RetryAfter: d}).Seconds()
}
