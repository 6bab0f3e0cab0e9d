package mcp

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestQuerySlotsBoundQueriesAtOnce(t *testing.T) {
	s := newQuerySlots(1)
	give, err := s.take(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// A second query waits while the slot is taken, and gives up with
	// its context.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := s.take(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("take with the only slot taken: %v, want it to wait until the deadline", err)
	}
	got := make(chan error, 1)
	go func() {
		g, err := s.take(context.Background())
		if err == nil {
			g()
		}
		got <- err
	}()
	select {
	case err := <-got:
		t.Fatalf("take returned %v before the slot was given back", err)
	case <-time.After(20 * time.Millisecond):
	}
	give()
	if err := <-got; err != nil {
		t.Fatal(err)
	}
	if n := cap(newQuerySlots(0)); n < 1 {
		t.Fatalf("newQuerySlots(0) holds %d slots, want GOMAXPROCS", n)
	}
}
