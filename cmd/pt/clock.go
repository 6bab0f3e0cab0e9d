package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/ptwiki/pt/wiki"
)

// testClockEnv names pt's one test-only clock: an RFC 3339 time at which
// every batch this process writes is dated (commit dates, batch ids, the
// log's month). It exists so that end-to-end tests state their time; it is
// not a way to backdate history, which --now never does either.
const testClockEnv = "PT_TEST_CLOCK"

// clockFromEnv reads testClockEnv; nil means the wall clock.
func clockFromEnv() (wiki.Clock, error) {
	v := os.Getenv(testClockEnv)
	if v == "" {
		return nil, nil
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return nil, fmt.Errorf("$%s: %q is not an RFC 3339 time", testClockEnv, v)
	}
	return func() time.Time { return t }, nil
}

// now reads the command's clock.
func (e *env) now() time.Time {
	if e.clock != nil {
		return e.clock()
	}
	return time.Now()
}

// openAt opens the space at dir with the command's clock.
func (e *env) openAt(ctx context.Context, dir string) (*wiki.Space, error) {
	s, err := wiki.Open(ctx, dir)
	if err != nil {
		return nil, err
	}
	s.SetClock(e.clock)
	return s, nil
}
