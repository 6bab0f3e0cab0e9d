package wiki

import (
	"sync"
	"time"
)

// A Clock tells a space the time. Batches are dated by it when they do not
// say otherwise: their commit's author and committer dates, their batch id
// and the month of log.md they join all come from it.
type Clock func() time.Time

// Now reads the space's clock: the wall clock unless SetClock replaced it.
func (s *Space) Now() time.Time {
	if c := s.clock.Load(); c != nil {
		return (*c)()
	}
	return time.Now()
}

// SetClock replaces the space's clock; nil restores the wall clock. Tests
// state their time this way, so that what they write does not depend on
// the day they run.
func (s *Space) SetClock(c Clock) {
	if c == nil {
		s.clock.Store(nil)
		return
	}
	s.clock.Store(&c)
}

// SteppingClock returns a clock that reads start first and then one step
// later at every read: distinct, ordered times for tests that write several
// batches. It is safe for concurrent use.
func SteppingClock(start time.Time, step time.Duration) Clock {
	var mu sync.Mutex
	next := start
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		t := next
		next = next.Add(step)
		return t
	}
}
