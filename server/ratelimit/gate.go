package ratelimit

import (
	"context"
	"errors"
	"sync"
)

// ErrQueueFull is Enter's answer when a user already has as many requests
// waiting as a bounded gate lets wait: the caller refuses the request (429)
// rather than hold it.
var ErrQueueFull = errors.New("too many requests waiting")

// Gate bounds how many requests of one user run at once; the user's
// further requests wait in their own queue, in order. A token bucket
// bounds a user's rate over seconds; the gate bounds their share of the
// cores right now, so a burst the bucket allows (200 list pages at once)
// runs a few at a time instead of all together, and another user's request
// runs beside a few of them, not beside the whole burst. Other users are
// never queued behind it: each user has their own places.
//
// The zero Gate is not usable; make one with NewGate.
type Gate struct {
	places int
	queue  int // most requests of one user waiting; 0: no bound
	mu     sync.Mutex
	users  map[string]*gateUser
}

// gateUser is one user's requests: running, and waiting oldest first.
type gateUser struct {
	running int
	waiting []chan struct{}
}

// NewGate returns a gate that lets places requests of each user run at
// once (at least 1).
func NewGate(places int) *Gate {
	return &Gate{places: max(1, places), users: map[string]*gateUser{}}
}

// NewBoundedGate returns a gate like NewGate's that lets at most queue
// requests of each user wait for a place (at least 1); Enter refuses the
// next with ErrQueueFull. It bounds what a flood holds: places running and
// queue waiting, per user.
func NewBoundedGate(places, queue int) *Gate {
	g := NewGate(places)
	g.queue = max(1, queue)
	return g
}

// Enter takes one of key's places, waiting behind key's earlier requests
// while they are all taken. It returns the function that gives the place
// back (call it once, when the request is done), or ctx's error if ctx
// ends first.
func (g *Gate) Enter(ctx context.Context, key string) (func(), error) {
	leave := func() { g.leave(key) }
	g.mu.Lock()
	u := g.users[key]
	if u == nil {
		u = &gateUser{}
		g.users[key] = u
	}
	if u.running < g.places {
		u.running++
		g.mu.Unlock()
		return leave, nil
	}
	if g.queue > 0 && len(u.waiting) >= g.queue {
		g.mu.Unlock()
		return nil, ErrQueueFull
	}
	ready := make(chan struct{})
	u.waiting = append(u.waiting, ready)
	g.mu.Unlock()
	select {
	case <-ready:
		return leave, nil
	case <-ctx.Done():
	}
	g.mu.Lock()
	select {
	case <-ready: // handed a place while giving up: pass it on
		g.mu.Unlock()
		g.leave(key)
	default:
		for i, c := range u.waiting {
			if c == ready {
				u.waiting = append(u.waiting[:i:i], u.waiting[i+1:]...)
				break
			}
		}
		g.mu.Unlock()
	}
	return nil, ctx.Err()
}

// leave gives key's place to its oldest waiting request, if any.
func (g *Gate) leave(key string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	u := g.users[key]
	if len(u.waiting) > 0 {
		close(u.waiting[0])
		u.waiting[0] = nil
		u.waiting = u.waiting[1:]
		return
	}
	u.running--
	if u.running == 0 {
		delete(g.users, key) // the map holds only users with requests
	}
}
