package gitstore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestCommitHistoryMatchesGit(t *testing.T) {
	ctx := context.Background()
	s := newRepo(t)
	dir := s.WorkDir()
	var want []string
	for i, spec := range [][]string{
		{"kb.yaml=name: kb", "index.md=# hub"},
		{"pages/a.md=A", "pages/b.md=B"},
		{"pages/a.md=A2", "-pages/b.md", "log.md=one"},
	} {
		head, _ := s.Head(ctx)
		res, err := s.Commit(ctx, CommitRequest{
			Parent: head, Changes: files(spec...), Author: sig(i),
			Message: "ingest: batch\n\nBatch-Id: b-" + string(rune('0'+i)),
		})
		if err != nil || res.WorktreeErr != nil {
			t.Fatal(err, res.WorktreeErr)
		}
		want = append([]string{res.Hash.String()}, want...)
	}
	if got := strings.Split(git(t, dir, "log", "--format=%H"), "\n"); !cmp.Equal(got, want) {
		t.Fatalf("git log %v, want %v", got, want)
	}
	if got := git(t, dir, "log", "-1", "--format=%an <%ae> %ad%n%B", "--date=raw"); got != fmt.Sprintf("pt test <pt@example.com> %d +0100\ningest: batch\n\nBatch-Id: b-2", sig(2).When.Unix()) {
		t.Errorf("git log -1:\n%s", got)
	}
	if got := git(t, dir, "rev-parse", "--abbrev-ref", "HEAD"); got != "main" {
		t.Errorf("branch %s", got)
	}
	if got := git(t, dir, "show", "HEAD:pages/a.md"); got != "A2" {
		t.Errorf("show %q", got)
	}
	if st := git(t, dir, "status", "--porcelain", "--untracked-files=all"); st != "" {
		t.Errorf("status:\n%s", st)
	}
	if got := git(t, dir, "reflog", "--format=%gs"); !strings.HasPrefix(got, "commit: ingest: batch") ||
		!strings.HasSuffix(got, "commit (initial): ingest: batch") {
		t.Errorf("reflog:\n%s", got)
	}
	fsck(t, dir)

	// Log and CommitInfo read back what was written.
	log, err := s.Log(ctx, mustHash(t, want[0]), 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(log) != 3 || log[0].Hash.String() != want[0] || len(log[2].Parents) != 0 || log[1].Parents[0] != log[2].Hash {
		t.Fatalf("Log = %+v", log)
	}
	if log[0].Message != "ingest: batch\n\nBatch-Id: b-2\n" || !log[0].Author.When.Equal(sig(2).When) {
		t.Errorf("CommitInfo: %q %v", log[0].Message, log[0].Author.When)
	}
	if l, _ := s.Log(ctx, log[0].Hash, 2); len(l) != 2 {
		t.Errorf("Log max 2: %d", len(l))
	}
}

func TestExactHash(t *testing.T) {
	// Identity and clock are inputs: the same batch gives the same commit,
	// the one git computes from the same content.
	s := newRepo(t)
	h := commit(t, s, "m", "a.md=a")
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	writeFile(t, filepath.Join(dir, "a.md"), "a")
	git(t, dir, "add", "a.md")
	tree := git(t, dir, "write-tree")
	date := fmt.Sprintf("%d +0100", sig(1).When.Unix())
	c := gitStdinEnv(t, dir, "m\n", []string{
		"GIT_AUTHOR_NAME=pt test", "GIT_AUTHOR_EMAIL=pt@example.com", "GIT_AUTHOR_DATE=" + date,
		"GIT_COMMITTER_NAME=pt test", "GIT_COMMITTER_EMAIL=pt@example.com", "GIT_COMMITTER_DATE=" + date,
	}, "commit-tree", tree)
	if h.String() != c {
		t.Fatalf("hash %s, git commit-tree %s", h, c)
	}
}

func TestStaleParent(t *testing.T) {
	ctx := context.Background()
	s := newRepo(t)
	first := commit(t, s, "one", "a.md=1")
	second := commit(t, s, "two", "a.md=2")
	_, err := s.Commit(ctx, CommitRequest{Parent: first, Changes: files("b.md=x"), Message: "late", Author: sig(3)})
	if !errors.Is(err, ErrStale) {
		t.Fatalf("err = %v, want ErrStale", err)
	}
	if head, _ := s.Head(ctx); head != second {
		t.Fatalf("head moved to %s", head)
	}
	// First commit on a branch that already has one is stale too.
	if _, err := s.Commit(ctx, CommitRequest{Changes: files("c.md=x"), Message: "root", Author: sig(4)}); !errors.Is(err, ErrStale) {
		t.Fatalf("unborn expectation: err = %v, want ErrStale", err)
	}
	// A stale no-op is reported as stale, not as no change.
	if _, err := s.Commit(ctx, CommitRequest{Parent: first, Changes: files("a.md=1"), Message: "noop", Author: sig(5)}); !errors.Is(err, ErrStale) {
		t.Fatalf("stale no-op: err = %v, want ErrStale", err)
	}
	if _, err := os.Stat(filepath.Join(s.GitDir(), "refs/heads/main.lock")); !os.IsNotExist(err) {
		t.Fatalf("ref lock left behind: %v", err)
	}
	if _, err := os.Stat(s.journalPath()); !os.IsNotExist(err) {
		t.Fatalf("journal left behind: %v", err)
	}
	if st := git(t, s.WorkDir(), "status", "--porcelain", "--untracked-files=all"); st != "" {
		t.Errorf("status:\n%s", st)
	}
	fsck(t, s.WorkDir())
}

func TestGitCommitInBetweenIsNeverLost(t *testing.T) {
	ctx := context.Background()
	s := newRepo(t)
	dir := s.WorkDir()
	base := commit(t, s, "one", "pages/a.md=1")
	// A person commits with git while pt is building a batch on base.
	writeFile(t, filepath.Join(dir, "notes.txt"), "by hand")
	git(t, dir, "add", "notes.txt")
	git(t, dir, "commit", "-q", "-m", "by hand")
	byHand := git(t, dir, "rev-parse", "HEAD")

	_, err := s.Commit(ctx, CommitRequest{Parent: base, Changes: files("pages/b.md=2"), Message: "pt", Author: sig(1)})
	if !errors.Is(err, ErrStale) {
		t.Fatalf("err = %v, want ErrStale", err)
	}
	head, _ := s.Head(ctx)
	if head.String() != byHand {
		t.Fatalf("head %s, want git's %s", head, byHand)
	}
	// Re-applied on the new head, both survive.
	h := commit(t, s, "pt again", "pages/b.md=2")
	if got := git(t, dir, "log", "--format=%s"); got != "pt again\nby hand\none" {
		t.Fatalf("log:\n%s", got)
	}
	if got := git(t, dir, "show", h.String()+":notes.txt"); got != "by hand" {
		t.Fatalf("notes.txt = %q", got)
	}
	if st := git(t, dir, "status", "--porcelain", "--untracked-files=all"); st != "" {
		t.Errorf("status:\n%s", st)
	}
	fsck(t, dir)
}

func TestUserEditsAreNotClobbered(t *testing.T) {
	ctx := context.Background()
	s := newRepo(t)
	dir := s.WorkDir()
	commit(t, s, "one", "a.md=1", "b.md=1", "c.md=1")
	writeFile(t, filepath.Join(dir, "a.md"), "my edit")     // uncommitted edit
	writeFile(t, filepath.Join(dir, "new.md"), "untracked") // untracked, in the way
	writeFile(t, filepath.Join(dir, "c.md"), "edited, then deleted by the batch")
	head, _ := s.Head(ctx)
	res, err := s.Commit(ctx, CommitRequest{Parent: head, Changes: files("a.md=2", "b.md=2", "new.md=pt", "-c.md"), Message: "two", Author: sig(1)})
	if err != nil || res.WorktreeErr != nil {
		t.Fatal(err, res.WorktreeErr)
	}
	if diff := cmp.Diff([]string{"a.md", "c.md", "new.md"}, sortedCopy(res.SkippedWorktree)); diff != "" {
		t.Errorf("skipped (-want +got):\n%s", diff)
	}
	if got := readFile(t, filepath.Join(dir, "a.md")); got != "my edit" {
		t.Errorf("a.md clobbered: %q", got)
	}
	if got := readFile(t, filepath.Join(dir, "new.md")); got != "untracked" {
		t.Errorf("new.md clobbered: %q", got)
	}
	if got := readFile(t, filepath.Join(dir, "b.md")); got != "2" {
		t.Errorf("b.md = %q", got)
	}
	if got := git(t, dir, "show", "HEAD:a.md"); got != "2" {
		t.Errorf("HEAD:a.md = %q", got)
	}
	// The edits show as modifications on top of the new commit.
	st := git(t, dir, "status", "--porcelain", "--untracked-files=all")
	if st != "M a.md\n M new.md\n?? c.md" && st != " M a.md\n M new.md\n?? c.md" {
		t.Errorf("status:\n%s", st)
	}
	fsck(t, dir)
}

func TestStagedChangeIsKept(t *testing.T) {
	ctx := context.Background()
	s := newRepo(t)
	dir := s.WorkDir()
	commit(t, s, "one", "a.md=1")
	writeFile(t, filepath.Join(dir, "a.md"), "staged")
	git(t, dir, "add", "a.md")
	head, _ := s.Head(ctx)
	res, err := s.Commit(ctx, CommitRequest{Parent: head, Changes: files("a.md=2"), Message: "two", Author: sig(1)})
	if err != nil || res.WorktreeErr != nil {
		t.Fatal(err, res.WorktreeErr)
	}
	if got := git(t, dir, "show", ":a.md"); got != "staged" {
		t.Errorf("index a.md = %q, want the staged content", got)
	}
	fsck(t, dir)
}

func TestStaleRefLockIsCleared(t *testing.T) {
	ctx := context.Background()
	s := newRepo(t)
	commit(t, s, "one", "a.md=1")
	lock := filepath.Join(s.GitDir(), "refs", "heads", "main.lock")
	writeFile(t, lock, "")
	old := time.Now().Add(-10 * time.Second)
	os.Chtimes(lock, old, old)
	h := commit(t, s, "two", "a.md=2")
	if got := git(t, s.WorkDir(), "rev-parse", "HEAD"); got != h.String() {
		t.Fatalf("HEAD %s, want %s", got, h)
	}
	if _, err := os.Stat(lock); !os.IsNotExist(err) {
		t.Fatalf("lock still there: %v", err)
	}

	// A fresh lock (a live git command) is waited for, then reported by name.
	writeFile(t, lock, "")
	stop := make(chan struct{})
	go func() { // keep it fresh: a git that never finishes
		for {
			select {
			case <-stop:
				return
			case <-time.After(200 * time.Millisecond):
				now := time.Now()
				os.Chtimes(lock, now, now)
			}
		}
	}()
	head, _ := s.Head(ctx)
	_, err := s.Commit(ctx, CommitRequest{Parent: head, Changes: files("a.md=3"), Message: "three", Author: sig(3)})
	close(stop)
	if err == nil || !strings.Contains(err.Error(), lock) {
		t.Fatalf("err = %v, want one naming %s", err, lock)
	}
	os.Remove(lock)
	fsck(t, s.WorkDir())
}

func TestPendingJournalIsFinishedOnOpen(t *testing.T) {
	ctx := context.Background()
	s := newRepo(t)
	dir := s.WorkDir()
	commit(t, s, "one", "a.md=1", "gone/x.md=x")
	// Simulate a process killed after the ref moved, before the work tree
	// followed: move the branch behind pt's back, leaving the journal.
	head, _ := s.Head(ctx)
	s.mu.Lock()
	b := &treeBuilder{s: s}
	trie, _ := changeTrie(files("a.md=2", "b/c.md=3", "-gone/x.md"))
	root, _, err := b.build(mustTree(t, s, head), trie, "")
	if err != nil {
		t.Fatal(err)
	}
	data := encodeCommit(root, []Hash{head}, sig(1), sig(1), "two")
	h := hashObject(commitObject, data)
	b.objects = append(b.objects, object{hash: h, typ: commitObject, data: data})
	if err := s.writeObjects(b.objects); err != nil {
		t.Fatal(err)
	}
	if _, err := s.journalWorktree(h, b.changes); err != nil {
		t.Fatal(err)
	}
	if err := s.updateRef(head, h, "two", sig(1)); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, ".pt-tmp-123"), "half") // a killed writer's temp file
	// and a dead pt process's index.lock, younger than the journal (the
	// process is started first: the journal names it)
	pid := deadPID(t)
	writeFile(t, filepath.Join(s.GitDir(), "index.lock"), "")
	rewriteJournalPID(t, s, pid)
	s.mu.Unlock()

	if st := git(t, dir, "status", "--porcelain"); st == "" {
		t.Fatal("expected the work tree to be behind")
	}
	s2, err := Open(ctx, filepath.Join(dir, "b"))
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if st := git(t, dir, "status", "--porcelain", "--untracked-files=all"); st != "" {
		t.Fatalf("status after Open:\n%s", st)
	}
	if got := readFile(t, filepath.Join(dir, "b/c.md")); got != "3" {
		t.Errorf("b/c.md = %q", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "gone")); !os.IsNotExist(err) {
		t.Errorf("gone/ still there")
	}
	if _, err := os.Stat(s.journalPath()); !os.IsNotExist(err) {
		t.Errorf("journal still there")
	}
	fsck(t, dir)
}

func mustHash(t testing.TB, s string) Hash {
	t.Helper()
	h, err := ParseHash(s)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func mustTree(t testing.TB, s *Store, c Hash) Hash {
	t.Helper()
	h, err := s.commitTree(c)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func sortedCopy(in []string) []string {
	out := append([]string(nil), in...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

func TestPackedRefsAndSymlinkedDir(t *testing.T) {
	ctx := context.Background()
	s := newRepo(t)
	dir := s.WorkDir()
	first := commit(t, s, "one", "a.md=1")
	git(t, dir, "pack-refs", "--all")
	if _, err := os.Stat(filepath.Join(s.GitDir(), "refs/heads/main")); !os.IsNotExist(err) {
		t.Fatal("ref still loose")
	}
	if h, _ := s.Head(ctx); h != first {
		t.Fatalf("Head from packed-refs = %s", h)
	}
	second := commit(t, s, "two", "a.md=2")
	if _, err := s.Commit(ctx, CommitRequest{Parent: first, Changes: files("b.md=1"), Message: "late", Author: sig(1)}); !errors.Is(err, ErrStale) {
		t.Fatalf("err = %v", err)
	}
	if got := git(t, dir, "rev-parse", "main"); got != second.String() {
		t.Fatalf("main = %s", got)
	}
	// A symlinked directory in the work tree is never written through.
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	head, _ := s.Head(ctx)
	res, err := s.Commit(ctx, CommitRequest{Parent: head, Changes: files("link/x.md=escape"), Message: "three", Author: sig(3)})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.SkippedWorktree) != 1 {
		t.Errorf("skipped = %v", res.SkippedWorktree)
	}
	if _, err := os.Stat(filepath.Join(outside, "x.md")); !os.IsNotExist(err) {
		t.Errorf("wrote through the symlink")
	}
	fsck(t, dir)
}

// In a container every run of pt may have the same pid: a journal and an
// index.lock left by a killed run with this process's pid are recognised
// as a dead writer's (the journal's nonce is not this process's), so git
// is not left refusing to commit.
func TestJournalOfADeadRunWithThisPid(t *testing.T) {
	ctx := context.Background()
	s := newRepo(t)
	commit(t, s, "one", "a.md=a")
	dir := repoDir(s)
	commit(t, s, "two", "b.md=b")
	if err := s.writeJournal([]wtEntry{{path: "b.md"}}); err != nil {
		t.Fatal(err)
	}
	rewriteJournalPID(t, s, os.Getpid()) // this pid, no nonce: an earlier run
	lock := filepath.Join(s.GitDir(), "index.lock")
	writeFile(t, lock, "")
	s.Close()
	s2, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if _, err := os.Stat(lock); !os.IsNotExist(err) {
		t.Fatalf("index.lock left by the dead run is still there: %v", err)
	}
	if st := git(t, dir, "status", "--porcelain"); st != "" {
		t.Errorf("status after recovery:\n%s", st)
	}
}
