package wiki_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ptwiki/pt/wiki"
)

// An unreachable remote and a push refused by a pre-receive hook are clear
// errors that keep the local batch; the next sync pushes it, once.
func TestSyncUnreachableAndRejectedKeepBatches(t *testing.T) {
	ctx := context.Background()
	base, bare := hostRepo(t, true)
	url, kill := startDaemon(t, base)
	s, _ := replica(t, bare, url+"kb.git")
	id := ingest(t, s, "Kept note", "ops")
	local := head(t, s)

	hook := filepath.Join(bare, "hooks", "pre-receive")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\necho 'frozen for review: commits are required to be signed' >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := s.Sync(ctx, wiki.SyncOptions{})
	t.Logf("rejected: %v", err)
	if !errors.Is(err, wiki.ErrPushRejected) {
		t.Fatalf("push past a rejecting hook: err = %v, want ErrPushRejected", err)
	}
	if !strings.Contains(err.Error(), "frozen for review") {
		t.Errorf("the refusal %q does not carry the host's message", err)
	}
	if head(t, s) != local || slices.Contains(batchIDs(t, bare, "main"), id) {
		t.Fatal("a rejected push lost or landed the batch")
	}
	os.Remove(hook)

	kill()
	_, err = s.Sync(ctx, wiki.SyncOptions{})
	t.Logf("unreachable: %v", err)
	if err == nil || !strings.Contains(err.Error(), "origin") {
		t.Fatalf("sync with the server down: err = %v, want an error naming the remote", err)
	}
	if head(t, s) != local {
		t.Fatal("a failed fetch moved the branch")
	}

	url2, _ := startDaemon(t, base)
	gitIn(t, s, "remote", "set-url", "origin", url2+"kb.git")
	if _, err := s.Sync(ctx, wiki.SyncOptions{}); err != nil {
		t.Fatal(err)
	}
	if ids := batchIDs(t, bare, "main"); countOf(ids, id) != 1 {
		t.Errorf("batch %s on the remote %d times, want once: %v", id, countOf(ids, id), ids)
	}
}

// A connection cut in the middle of a push leaves the remote as it was and
// the batch local; a corrupt pack on fetch leaves the local repository as
// it was. Both recover on the next sync.
func TestSyncNetworkCutAndCorruptPack(t *testing.T) {
	ctx := context.Background()
	base, bare := hostRepo(t, true)
	var cutPush, corruptFetch atomic.Bool
	url := startHTTP(t, base, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch {
			case cutPush.Load() && strings.HasSuffix(r.URL.Path, "/git-receive-pack"):
				io.CopyN(io.Discard, r.Body, 64) // part of the pack, then the line drops
				panic(http.ErrAbortHandler)
			case corruptFetch.Load() && strings.HasSuffix(r.URL.Path, "/git-upload-pack"):
				h.ServeHTTP(&corrupter{ResponseWriter: w}, r)
				return
			}
			h.ServeHTTP(w, r)
		})
	})
	s, dir := replica(t, bare, url+"kb.git")
	remote := git(t, bare, "rev-parse", "main")

	id := ingest(t, s, "Cut note", "ops")
	cutPush.Store(true)
	if _, err := s.Sync(ctx, wiki.SyncOptions{}); err == nil {
		t.Fatal("sync through a cut connection succeeded")
	} else {
		t.Logf("cut push: %v", err)
	}
	if git(t, bare, "rev-parse", "main") != remote {
		t.Fatal("a cut push moved the remote branch")
	}
	git(t, bare, "fsck", "--strict")
	cutPush.Store(false)

	personCommit(t, bare, "person: a page", map[string]string{"pages/hand.md": "# Hand\n"})
	local := head(t, s)
	corruptFetch.Store(true)
	if _, err := s.Sync(ctx, wiki.SyncOptions{}); err == nil {
		t.Fatal("sync with a corrupt pack succeeded")
	} else {
		t.Logf("corrupt pack: %v", err)
	}
	if head(t, s) != local {
		t.Fatal("a corrupt fetch moved the branch")
	}
	git(t, dir, "fsck", "--strict")
	corruptFetch.Store(false)

	res, err := s.Sync(ctx, wiki.SyncOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Received != 1 || res.Pushed != 1 {
		t.Errorf("recovery sync: received %d pushed %d, want 1 and 1", res.Received, res.Pushed)
	}
	if ids := batchIDs(t, bare, "main"); countOf(ids, id) != 1 {
		t.Errorf("batch %s on the remote %d times, want once", id, countOf(ids, id))
	}
	git(t, dir, "fsck", "--strict")
}

// corrupter flips bytes in the middle of a response body: a pack that
// arrives damaged.
type corrupter struct {
	http.ResponseWriter
	n int
}

func (c *corrupter) Write(p []byte) (int, error) {
	q := append([]byte(nil), p...)
	for i := range q {
		if c.n+i > 200 && (c.n+i)%7 == 0 {
			q[i] ^= 0x5a
		}
	}
	c.n += len(p)
	return c.ResponseWriter.Write(q)
}

// When the remote branch is rewritten by force, the commits it dropped are
// not pushed back (the rewrite stands), they are kept at a ref, and the
// batches that were never pushed still land.
func TestSyncRemoteRewrittenByForce(t *testing.T) {
	ctx := context.Background()
	base, bare := hostRepo(t, true)
	url, _ := startDaemon(t, base)
	s, dir := replica(t, bare, url+"kb.git")
	dropped := ingest(t, s, "Pushed then dropped", "ops")
	if _, err := s.Sync(ctx, wiki.SyncOptions{}); err != nil {
		t.Fatal(err)
	}
	// A person rewinds the host by one commit and adds their own.
	p := filepath.Join(t.TempDir(), "p")
	git(t, filepath.Dir(p), "clone", "-q", bare, p)
	git(t, p, "reset", "-q", "--hard", "HEAD~1")
	os.WriteFile(filepath.Join(p, "NOTICE.md"), []byte("rewritten\n"), 0o644)
	git(t, p, "add", "NOTICE.md")
	git(t, p, "commit", "-q", "-m", "person: rewrite")
	git(t, p, "push", "-q", "--force", "origin", "main")

	kept := ingest(t, s, "Never pushed", "ops")
	old := head(t, s)
	res, err := s.Sync(ctx, wiki.SyncOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ids := batchIDs(t, bare, "main")
	if slices.Contains(ids, dropped) || countOf(ids, kept) != 1 {
		t.Errorf("remote batches %v: want %s once and not %s", ids, kept, dropped)
	}
	if res.Rewritten == "" || git(t, dir, "rev-parse", res.Rewritten) != old {
		t.Errorf("old history not kept: rewritten ref %q", res.Rewritten)
	}
	if h := git(t, dir, "rev-parse", "HEAD"); h != git(t, bare, "rev-parse", "main") {
		t.Error("replica not at the remote's head")
	}
}

func gitIn(t *testing.T, s *wiki.Space, args ...string) string {
	t.Helper()
	return git(t, s.Dir(), args...)
}

func countOf(ids []string, id string) int {
	n := 0
	for _, x := range ids {
		if x == id {
			n++
		}
	}
	return n
}
