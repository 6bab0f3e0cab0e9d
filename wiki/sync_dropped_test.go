package wiki_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ptwiki/pt/wiki"
)

// Two replicas revert the same batch before either syncs: the second sync
// finds its revert already on the remote, drops it and says so, instead of
// pushing a second revert that changes nothing but log.md. Its other
// batches still land.
func TestSyncDropsABatchTheRemoteAlreadyApplied(t *testing.T) {
	ctx := context.Background()
	_, bare := hostRepo(t, true)
	a, _ := replica(t, bare, bare)
	x := ingest(t, a, "Reverted twice", "ops")
	if _, err := a.Sync(ctx, wiki.SyncOptions{}); err != nil {
		t.Fatal(err)
	}
	b, dirB := replica(t, bare, bare)
	ra, err := a.Revert(ctx, x, wiki.RevertOptions{ApprovedBy: "dana"})
	if err != nil {
		t.Fatal(err)
	}
	rb, err := b.Revert(ctx, x, wiki.RevertOptions{ApprovedBy: "eve"})
	if err != nil {
		t.Fatal(err)
	}
	rbCommit := head(t, b)
	kept := ingest(t, b, "Written after the revert", "ops")
	if _, err := a.Sync(ctx, wiki.SyncOptions{}); err != nil {
		t.Fatal(err)
	}

	res, err := b.Sync(ctx, wiki.SyncOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Dropped) != 1 || res.Dropped[0].Batch != rb.Batch || res.Dropped[0].Commit != rbCommit {
		t.Errorf("dropped %+v, want batch %s (commit %s)", res.Dropped, rb.Batch, rbCommit)
	}
	if len(res.Replayed) != 1 || res.Replayed[0].Batch != kept {
		t.Errorf("replayed %+v, want only %s", res.Replayed, kept)
	}
	if res.Pushed != 1 {
		t.Errorf("pushed %d, want 1", res.Pushed)
	}
	ids := batchIDs(t, bare, "main")
	if countOf(ids, ra.Batch) != 1 || countOf(ids, rb.Batch) != 0 || countOf(ids, kept) != 1 {
		t.Errorf("remote batches %v: want %s and %s once, not %s", ids, ra.Batch, kept, rb.Batch)
	}
	log := fullLog(t, bare, "main")
	if strings.Contains(log, rb.Batch) || strings.Count(log, "reverts `"+x+"`") != 1 {
		t.Errorf("log.md lists the dropped revert, or not one revert of %s:\n%s", x, log)
	}
	if h := git(t, dirB, "rev-parse", "HEAD"); h != git(t, bare, "rev-parse", "main") {
		t.Error("replica b not at the remote's head")
	}
	if st := git(t, dirB, "status", "--porcelain"); st != "" {
		t.Errorf("work tree not in step:\n%s", st)
	}
}
