package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ptwiki/pt/wiki"
)

// lockedBuffer is a stderr that jobs and the test may use at once.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func cronSpace(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	s, _, err := wiki.Init(context.Background(), dir, wiki.InitOptions{Name: "team", Clock: wiki.SteppingClock(time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC), time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	return dir
}

func withReapJob(t *testing.T, job func(ctx context.Context, s *wiki.Space, now time.Time) error) {
	old := reapJob
	reapJob = job
	t.Cleanup(func() { reapJob = old })
}

// TestCronSurvivesFailures: a run that panics and a run that fails are
// logged, and the schedule goes on; cancelling stops it cleanly.
func TestCronSurvivesFailures(t *testing.T) {
	dir := cronSpace(t)
	var n atomic.Int32
	calls := make(chan int32, 16)
	withReapJob(t, func(ctx context.Context, s *wiki.Space, now time.Time) error {
		k := n.Add(1)
		calls <- k
		switch k {
		case 1:
			panic("boom")
		case 2:
			return errors.New("disk on fire")
		}
		return nil
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stderr lockedBuffer
	done := make(chan error, 1)
	go func() {
		done <- runCron(ctx, &env{stderr: &stderr}, dir, cronSpecs{lint: "off", reap: "@every 1s", sync: "off"}, 5*time.Second)
	}()
	for range 3 {
		select {
		case <-calls:
		case <-time.After(10 * time.Second):
			t.Fatalf("the schedule stopped after %d runs:\n%s", n.Load(), stderr.String())
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("runCron: %v", err)
	}
	out := stderr.String()
	for _, want := range []string{"panic", "boom", "reap failed: disk on fire", "reap done", "stopped"} {
		if !strings.Contains(out, want) {
			t.Errorf("stderr lacks %q:\n%s", want, out)
		}
	}
}

// TestCronStopTimeout: a job that outlives the stop timeout is cancelled
// and the stop reports it.
func TestCronStopTimeout(t *testing.T) {
	dir := cronSpace(t)
	started := make(chan struct{}, 1)
	cancelled := make(chan struct{})
	withReapJob(t, func(ctx context.Context, s *wiki.Space, now time.Time) error {
		started <- struct{}{}
		<-ctx.Done()
		close(cancelled)
		return ctx.Err()
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stderr lockedBuffer
	done := make(chan error, 1)
	go func() {
		done <- runCron(ctx, &env{stderr: &stderr}, dir, cronSpecs{lint: "off", reap: "@every 1s", sync: "off"}, 100*time.Millisecond)
	}()
	select {
	case <-started:
	case <-time.After(10 * time.Second):
		t.Fatalf("job never ran:\n%s", stderr.String())
	}
	cancel()
	err := <-done
	if err == nil || !strings.Contains(err.Error(), "still running") {
		t.Fatalf("runCron = %v, want a still-running error", err)
	}
	select {
	case <-cancelled:
	case <-time.After(5 * time.Second):
		t.Fatal("the running job's context was not cancelled")
	}
}
