package wiki_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/ptwiki/pt/wiki"
)

// A remote branch rewound by force drops commits this clone had synced
// with it: the next sync keeps them at refs/pt/rewritten/... and does not
// push them back, whether the rewrite left the clone with nothing new, with
// a batch never pushed, with the remote given as a URL (no tracking ref),
// or with a plain git fetch run in the clone first (which moves the
// tracking ref to the rewritten tip).
func TestSyncDoesNotPushBackWhatARewriteDropped(t *testing.T) {
	for _, tc := range []struct {
		name     string
		url      bool // sync with SyncOptions.Remote set to the host's path
		fetch    bool // git fetch in the clone before the sync
		newBatch bool // a batch ingested after the rewrite, never pushed
	}{
		{name: "nothing new"},
		{name: "a new batch", newBatch: true},
		{name: "remote given as a URL", url: true},
		{name: "remote given as a URL, a new batch", url: true, newBatch: true},
		{name: "after git fetch", fetch: true},
		{name: "after git fetch, a new batch", fetch: true, newBatch: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			_, bare := hostRepo(t, true)
			s, dir := replica(t, bare, bare)
			opts := wiki.SyncOptions{}
			if tc.url {
				opts.Remote = bare
			}
			kept := ingest(t, s, "Kept on the host", "ops")
			dropped := ingest(t, s, "Dropped by the rewrite", "ops")
			if _, err := s.Sync(ctx, opts); err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(t.TempDir(), "p")
			git(t, filepath.Dir(p), "clone", "-q", bare, p)
			git(t, p, "reset", "-q", "--hard", "HEAD~1")
			git(t, p, "push", "-q", "--force", "origin", "main")
			if tc.fetch {
				git(t, dir, "fetch", "-q", "origin")
			}
			var fresh string
			if tc.newBatch {
				fresh = ingest(t, s, "Written after the rewrite", "ops")
			}
			old := head(t, s)

			res, err := s.Sync(ctx, opts)
			if err != nil {
				t.Fatal(err)
			}
			ids := batchIDs(t, bare, "main")
			if slices.Contains(ids, dropped) || !slices.Contains(ids, kept) {
				t.Errorf("remote batches %v: want %s and not %s", ids, kept, dropped)
			}
			wantPushed := 0
			if tc.newBatch {
				wantPushed = 1
				if countOf(ids, fresh) != 1 {
					t.Errorf("remote batches %v: want %s once", ids, fresh)
				}
			}
			if res.Pushed != wantPushed {
				t.Errorf("pushed %d, want %d", res.Pushed, wantPushed)
			}
			if res.Rewritten == "" || git(t, dir, "rev-parse", res.Rewritten) != old {
				t.Errorf("old history not kept: rewritten ref %q", res.Rewritten)
			}
			if h := git(t, dir, "rev-parse", "HEAD"); h != git(t, bare, "rev-parse", "main") {
				t.Error("replica not at the remote's head")
			}
			if st := git(t, dir, "status", "--porcelain"); st != "" {
				t.Errorf("work tree not in step:\n%s", st)
			}

			// The next sync has nothing to do: the rewrite is not reported
			// again and nothing is pushed.
			res, err = s.Sync(ctx, opts)
			if err != nil {
				t.Fatal(err)
			}
			if !res.UpToDate() {
				t.Errorf("second sync: %+v, want up to date", res)
			}
		})
	}
}

// A push that lands while the sync is being cancelled (pt serve stopping,
// Ctrl-C) is still recorded as synced, so a later rewrite of the remote
// that drops it is recognised and the batch not pushed back.
func TestSyncRecordsAPushThatLandsWhileCancelled(t *testing.T) {
	_, bare := hostRepo(t, true)
	hook := filepath.Join(bare, "hooks", "post-receive")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\nsleep 2\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	s, _ := replica(t, bare, bare)
	kept := ingest(t, s, "Kept on the host", "ops")
	if _, err := s.Sync(context.Background(), wiki.SyncOptions{}); err != nil {
		t.Fatal(err)
	}
	dropped := ingest(t, s, "Pushed while cancelled", "ops")
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	s.Sync(ctx, wiki.SyncOptions{}) // the push lands during the hook; the sync may report the cancellation
	if !slices.Contains(batchIDs(t, bare, "main"), dropped) {
		t.Skip("the push did not land before the cancellation")
	}
	os.Remove(hook)
	p := filepath.Join(t.TempDir(), "p")
	git(t, filepath.Dir(p), "clone", "-q", bare, p)
	git(t, p, "reset", "-q", "--hard", "HEAD~1")
	git(t, p, "push", "-q", "--force", "origin", "main")
	res, err := s.Sync(context.Background(), wiki.SyncOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if ids := batchIDs(t, bare, "main"); slices.Contains(ids, dropped) || !slices.Contains(ids, kept) || res.Pushed != 0 {
		t.Errorf("remote batches %v after the rewrite, pushed %d: the dropped batch %s came back", ids, res.Pushed, dropped)
	}
}
