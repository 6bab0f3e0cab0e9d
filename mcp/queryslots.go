package mcp

import (
	"context"
	"runtime"
)

// querySlots bounds how many queries a server answers at once. A query is
// CPU work from start to end: with more of them in flight than there are
// processors, the runtime time-slices them, so every answer waits for all
// of them, the heap holds all their work at once and the caches hold none
// of it. Queries past the bound wait their turn instead, first come first
// served, and a call that gives up while waiting costs nothing.
type querySlots chan struct{}

// newQuerySlots returns slots for n queries at once; n <= 0 means
// GOMAXPROCS.
func newQuerySlots(n int) querySlots {
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	return make(querySlots, n)
}

// take waits for a slot, or until ctx is done; the function it returns
// gives the slot back. nil slots bound nothing.
func (s querySlots) take(ctx context.Context) (func(), error) {
	if s == nil {
		return func() {}, nil
	}
	select {
	case s <- struct{}{}:
		return func() { <-s }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
