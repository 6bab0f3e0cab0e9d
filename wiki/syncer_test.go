package wiki_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/ptwiki/pt/wiki"
)

// A server wires SetAfterCommit to a Syncer: each batch reaches the remote
// without anyone calling Sync.
func TestSyncerPushesAfterEachBatch(t *testing.T) {
	_, bare := hostRepo(t, true)
	s, _ := replica(t, bare, bare)
	ctx, cancel := context.WithCancel(context.Background())
	results := make(chan error, 16)
	y := wiki.NewSyncer(s, wiki.SyncOptions{}, 0, func(_ *wiki.SyncResult, err error) { results <- err })
	s.SetAfterCommit(func(*wiki.Result) { y.Trigger() })
	done := make(chan struct{})
	go func() { y.Run(ctx); close(done) }()
	defer func() { cancel(); <-done; s.SetAfterCommit(nil) }()

	id := ingest(t, s, "Served note", "ops")
	deadline := time.After(10 * time.Second)
	for !slices.Contains(batchIDs(t, bare, "main"), id) {
		select {
		case err := <-results:
			if err != nil {
				t.Fatal(err)
			}
		case <-deadline:
			t.Fatalf("batch %s never reached the remote", id)
		}
	}
}
