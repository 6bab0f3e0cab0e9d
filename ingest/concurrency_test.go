package ingest_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/ptwiki/pt/ingest"
)

// TestConcurrentIngestProcesses starts 8 writer processes at once against
// one repository: all 8 batches land, on a linear history.
func TestConcurrentIngestProcesses(t *testing.T) {
	_, dir := newSpace(t, "")
	before := checkHistory(t, dir)
	var wg sync.WaitGroup
	errs := make([]error, 8)
	outs := make([][]byte, 8)
	for i := range 8 {
		cmd := helperCmd(t, "ingest", dir, fmt.Sprint(i))
		wg.Go(func() { outs[i], errs[i] = cmd.CombinedOutput() })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("writer %d: %v\n%s", i, err, outs[i])
		}
	}
	if got := checkHistory(t, dir); got != before+8 {
		t.Errorf("%d batches after 8 concurrent ingests, want %d", got, before+8)
	}
	if st := git(t, dir, "status", "--porcelain"); st != "" {
		t.Errorf("work tree not in step:\n%s", st)
	}
}

// TestConcurrentIngestGoroutines does the same with 8 goroutines sharing
// one *wiki.Space.
func TestConcurrentIngestGoroutines(t *testing.T) {
	s, dir := newSpace(t, "")
	before := checkHistory(t, dir)
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range 8 {
		wg.Go(func() {
			_, errs[i] = ingest.Ingest(context.Background(), s, ingest.Source{
				Title: fmt.Sprintf("Goroutine %d", i), Body: []byte(fmt.Sprintf("Goroutine %d notes.\n", i)),
				Topics: []string{fmt.Sprintf("topic-%d", i%3)}, Related: []string{}, ApprovedBy: "dana", Author: agent,
			})
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("goroutine %d: %v", i, err)
		}
	}
	if got := checkHistory(t, dir); got != before+8 {
		t.Errorf("%d batches after 8 concurrent ingests, want %d", got, before+8)
	}
}
