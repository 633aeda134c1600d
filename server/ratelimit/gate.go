package ratelimit

import (
	"context"
	"sync"
)

// Gate bounds how many requests run at once and shares the places fairly
// between users: when every place is taken, each user's requests wait in
// their own queue, and a freed place goes to the users in turn (round
// robin), not to whoever queued first. A token bucket bounds a user's
// rate over seconds; the gate bounds their share of the cores right now,
// so a burst the bucket allows (200 list pages at once) cannot make other
// users wait behind all of it: their next request waits for one place,
// not for the burst.
//
// The zero Gate is not usable; make one with NewGate.
type Gate struct {
	mu     sync.Mutex
	free   int
	queues map[string][]chan struct{} // waiters per user, oldest first
	turn   []string                   // users with waiters, in serving order
}

// NewGate returns a gate with places places (at least 1).
func NewGate(places int) *Gate {
	return &Gate{free: max(1, places), queues: map[string][]chan struct{}{}}
}

// Enter takes a place for key's request, waiting in key's queue while the
// gate is full. It returns the function that gives the place back (call it
// once, when the request is done), or ctx's error if ctx ends first.
func (g *Gate) Enter(ctx context.Context, key string) (func(), error) {
	g.mu.Lock()
	if g.free > 0 && len(g.turn) == 0 {
		g.free--
		g.mu.Unlock()
		return g.leave, nil
	}
	ready := make(chan struct{})
	if len(g.queues[key]) == 0 {
		g.turn = append(g.turn, key)
	}
	g.queues[key] = append(g.queues[key], ready)
	g.mu.Unlock()
	select {
	case <-ready:
		return g.leave, nil
	case <-ctx.Done():
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	select {
	case <-ready: // handed a place while giving up: pass it on
		g.handOn()
	default:
		g.drop(key, ready)
	}
	return nil, ctx.Err()
}

// leave gives a place back: to the next user in turn, if any waits.
func (g *Gate) leave() {
	g.mu.Lock()
	g.handOn()
	g.mu.Unlock()
}

// handOn gives a place to the oldest waiter of the user whose turn it is,
// and moves that user to the back of the turn; with no waiter the place
// becomes free. g.mu is held.
func (g *Gate) handOn() {
	if len(g.turn) == 0 {
		g.free++
		return
	}
	key := g.turn[0]
	q := g.queues[key]
	close(q[0])
	q[0] = nil
	g.turn = g.turn[1:]
	if len(q) > 1 {
		g.queues[key] = q[1:]
		g.turn = append(g.turn, key)
	} else {
		delete(g.queues, key)
	}
}

// drop removes a waiter that gave up. g.mu is held.
func (g *Gate) drop(key string, ready chan struct{}) {
	q := g.queues[key]
	for i, c := range q {
		if c == ready {
			q = append(q[:i:i], q[i+1:]...)
			break
		}
	}
	if len(q) > 0 {
		g.queues[key] = q
		return
	}
	delete(g.queues, key)
	for i, k := range g.turn {
		if k == key {
			g.turn = append(g.turn[:i:i], g.turn[i+1:]...)
			break
		}
	}
}
