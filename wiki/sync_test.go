package wiki_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ptwiki/pt/wiki"
)

// Two replicas ingest at the same time, each syncing after every batch,
// while a person commits on the host: every batch lands on the remote
// exactly once, history stays linear, the derived pages (log, spoke) list
// everything, and every clone ends at the same commit.
func TestSyncReplicasConvergeOverGitDaemon(t *testing.T) {
	ctx := context.Background()
	base, bare := hostRepo(t, true)
	url, _ := startDaemon(t, base)
	a, dirA := replica(t, bare, url+"kb.git")
	b, dirB := replica(t, bare, url+"kb.git")

	var mu sync.Mutex
	var want []string
	var wg sync.WaitGroup
	for _, r := range []struct {
		name string
		s    *wiki.Space
	}{{"a", a}, {"b", b}} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 3 {
				id := ingest(t, r.s, fmt.Sprintf("Note %s%d", r.name, i), "shared")
				mu.Lock()
				want = append(want, id)
				mu.Unlock()
				res, err := r.s.Sync(ctx, wiki.SyncOptions{Attempts: 20})
				if err != nil {
					t.Errorf("replica %s: sync: %v", r.name, err)
				} else {
					t.Logf("replica %s: attempts %d received %d replayed %d pushed %d", r.name, res.Attempts, res.Received, len(res.Replayed), res.Pushed)
				}
			}
		}()
	}
	person := personCommit(t, bare, "person: add a page by hand", map[string]string{"pages/by-hand.md": "# By hand\n\nWritten on the host.\n"})
	wg.Wait()
	for _, s := range []*wiki.Space{a, b, a} {
		if _, err := s.Sync(ctx, wiki.SyncOptions{}); err != nil {
			t.Fatal(err)
		}
	}

	got := batchIDs(t, bare, "main")
	init := got[0]
	got = got[1:]
	sort.Strings(got)
	sort.Strings(want)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("batches on the remote (-want +got):\n%s", diff)
	}
	if m := git(t, bare, "rev-list", "--merges", "main"); m != "" {
		t.Errorf("history is not linear: merges %s", m)
	}
	git(t, bare, "merge-base", "--is-ancestor", person, "main")
	git(t, bare, "fsck", "--strict")
	remote := git(t, bare, "rev-parse", "main")
	for name, dir := range map[string]string{"a": dirA, "b": dirB} {
		if h := git(t, dir, "rev-parse", "HEAD"); h != remote {
			t.Errorf("replica %s at %s, remote at %s", name, h, remote)
		}
		if st := git(t, dir, "status", "--porcelain"); st != "" {
			t.Errorf("replica %s work tree not in step:\n%s", name, st)
		}
		if got := git(t, dir, "rev-parse", "origin/main"); got != remote {
			t.Errorf("replica %s: origin/main at %s, want %s", name, got, remote)
		}
	}
	log := fullLog(t, bare, "main")
	for _, id := range append(want, init) {
		if n := strings.Count(log, "`"+id+"`"); n != 1 {
			t.Errorf("log.md has %d entries for %s, want 1", n, id)
		}
	}
	spoke := git(t, bare, "show", "main:topics/shared.md")
	for _, n := range []string{"a0", "a1", "a2", "b0", "b1", "b2"} {
		if !strings.Contains(spoke, "(../pages/note-"+n+".md)") {
			t.Errorf("spoke lacks note %s:\n%s", n, spoke)
		}
	}
}

// A fresh remote (no branch yet) is created by the first push, over http
// with a token (cmd/pt reads it from $PT_GIT_TOKEN); a second replica cloned over http
// gets it, and a wrong token is a clear error that never shows the token.
func TestSyncHTTPCreatesBranchWithToken(t *testing.T) {
	ctx := context.Background()
	base, bare := hostRepo(t, false)
	const token = "tok-5ecr3t-value"
	url := startHTTP(t, base, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if _, p, ok := r.BasicAuth(); !ok || p != token {
				w.Header().Set("WWW-Authenticate", `Basic realm="git"`)
				http.Error(w, "unauthorized", http.StatusUnauthorized)
				return
			}
			h.ServeHTTP(w, r)
		})
	})
	s, dir := newSpace(t)
	git(t, dir, "remote", "add", "origin", url+"kb.git")
	id := ingest(t, s, "First note", "ops")

	_, err := s.Sync(ctx, wiki.SyncOptions{GitToken: "wrong-" + token})
	if err == nil || strings.Contains(err.Error(), token) {
		t.Fatalf("sync with a wrong token: err = %v (want an error without the token)", err)
	}

	res, err := s.Sync(ctx, wiki.SyncOptions{GitToken: token})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Created || res.Pushed != 2 {
		t.Errorf("sync result: created %v pushed %d, want created and 2 pushed", res.Created, res.Pushed)
	}
	if got := batchIDs(t, bare, "main"); len(got) != 2 || got[1] != id {
		t.Errorf("remote batches %v, want [init %s]", got, id)
	}
	b, _ := replica(t, bare, url+"kb.git")
	id2 := ingest(t, b, "Second note", "ops")
	if _, err := b.Sync(ctx, wiki.SyncOptions{GitToken: token}); err != nil {
		t.Fatal(err)
	}
	res, err = s.Sync(ctx, wiki.SyncOptions{GitToken: token})
	if err != nil {
		t.Fatal(err)
	}
	if res.Received != 1 || res.Pushed != 0 || head(t, s) != git(t, bare, "rev-parse", "main") {
		t.Errorf("second sync: %+v; want 1 received, nothing pushed, at the remote's head", res)
	}
	if got := batchIDs(t, dir, "HEAD"); !slices.Contains(got, id2) {
		t.Errorf("local history lacks %s: %v", id2, got)
	}
	if st := git(t, dir, "status", "--porcelain"); st != "" {
		t.Errorf("work tree not in step after fast-forward:\n%s", st)
	}
}

// A local batch that changed a page a person also changed on the host is
// not merged blindly: the sync stops with the path and changes nothing;
// with SetAside the batch is kept at a ref and the rest lands.
func TestSyncConflictStopsOrSetsAside(t *testing.T) {
	ctx := context.Background()
	base, bare := hostRepo(t, true)
	url, _ := startDaemon(t, base)
	s, dir := replica(t, bare, url+"kb.git")
	ingest(t, s, "Shared page", "ops")
	if _, err := s.Sync(ctx, wiki.SyncOptions{}); err != nil {
		t.Fatal(err)
	}
	personCommit(t, bare, "person: fix the shared page", map[string]string{"pages/shared-page.md": "# Shared page\n\nFixed by hand.\n"})
	clash := rewritePage(t, s, "pages/shared-page.md", "Shared page, agent edit")
	ok := ingest(t, s, "Unrelated note", "ops")
	local := head(t, s)
	remote := git(t, bare, "rev-parse", "main")

	_, err := s.Sync(ctx, wiki.SyncOptions{})
	paths, isConflict := wiki.IsConflict(err)
	if !isConflict || !errors.Is(err, wiki.ErrConflict) {
		t.Fatalf("sync: err = %v, want a conflict", err)
	}
	if diff := cmp.Diff([]string{"pages/shared-page.md"}, paths); diff != "" {
		t.Errorf("conflict paths (-want +got):\n%s", diff)
	}
	if head(t, s) != local || git(t, bare, "rev-parse", "main") != remote {
		t.Fatal("a conflicting sync moved a branch")
	}

	res, err := s.Sync(ctx, wiki.SyncOptions{SetAside: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.SetAside) != 1 || res.SetAside[0].Batch != clash {
		t.Fatalf("set aside %+v, want batch %s", res.SetAside, clash)
	}
	if msg := git(t, dir, "log", "-1", "--format=%B", res.SetAside[0].Ref); !strings.Contains(msg, "Batch-Id: "+clash) {
		t.Errorf("set-aside ref %s does not keep batch %s:\n%s", res.SetAside[0].Ref, clash, msg)
	}
	ids := batchIDs(t, bare, "main")
	if slices.Contains(ids, clash) || !slices.Contains(ids, ok) {
		t.Errorf("remote batches %v: want %s and not %s", ids, ok, clash)
	}
	if got := git(t, bare, "show", "main:pages/shared-page.md"); !strings.Contains(got, "Fixed by hand") {
		t.Errorf("the person's edit was lost:\n%s", got)
	}
}

// rewritePage changes a page's body as an ingest batch.
func rewritePage(t *testing.T, s *wiki.Space, p, body string) string {
	t.Helper()
	res, err := s.Apply(context.Background(), wiki.Batch{Kind: wiki.KindIngest, Title: "rewrite " + p, ApprovedBy: "dana"},
		func(ctx context.Context, tx *wiki.Tx) error {
			pa, err := tx.ReadPage(ctx, p)
			if err != nil {
				return err
			}
			pa.Page.Body = []byte(body + "\n")
			_, err = tx.Put(ctx, p, pa.Page, wiki.RolePage)
			return err
		})
	if err != nil {
		t.Fatal(err)
	}
	return res.Batch
}
