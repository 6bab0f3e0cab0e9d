package gitstore

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestReadResolveDiffList(t *testing.T) {
	ctx := context.Background()
	s := newRepo(t)
	if h, err := s.Head(ctx); err != nil || !h.IsZero() {
		t.Fatalf("unborn Head = %v, %v", h, err)
	}
	c1 := commit(t, s, "1", "kb/pages/a.md=a", "kb/pages/b.md=b", "other/x=x")
	c2 := commit(t, s, "22", "kb/pages/a.md=a2", "kb/pages/c/d.md=d", "-kb/pages/b.md")
	c3 := commit(t, s, "333", "kb/pages=now a file", "-kb/pages/a.md", "-kb/pages/c/d.md")

	for rev, want := range map[string]Hash{
		"HEAD": c3, "main": c3, "HEAD~2": c1, "HEAD^": c2, c2.String(): c2, c1.String()[:8]: c1,
	} {
		if got, err := s.Resolve(ctx, rev); err != nil || got != want {
			t.Errorf("Resolve(%q) = %v, %v; want %v", rev, got, err, want)
		}
	}
	if _, err := s.Resolve(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Resolve(nope) err = %v", err)
	}

	data, blob, err := s.ReadFile(ctx, c2, "kb/pages/a.md")
	if err != nil || string(data) != "a2" {
		t.Fatalf("ReadFile = %q, %v", data, err)
	}
	if want := git(t, s.WorkDir(), "rev-parse", c2.String()+":kb/pages/a.md"); blob.String() != want {
		t.Errorf("blob %s, git %s", blob, want)
	}
	if b, _ := s.BlobOf(ctx, c2, "kb/pages/a.md"); b != blob {
		t.Errorf("BlobOf %s", b)
	}
	for _, p := range []string{"kb/pages/b.md", "kb/pages", "kb/pages/a.md/x", "zzz"} {
		if _, _, err := s.ReadFile(ctx, c2, p); !errors.Is(err, ErrNotFound) {
			t.Errorf("ReadFile(%s) err = %v, want ErrNotFound", p, err)
		}
	}

	list, _ := s.List(ctx, c2, "kb/pages/")
	var paths []string
	for _, e := range list {
		paths = append(paths, e.Path)
	}
	if diff := cmp.Diff([]string{"kb/pages/a.md", "kb/pages/c/d.md"}, paths); diff != "" {
		t.Errorf("List (-want +got):\n%s", diff)
	}
	if l, err := s.List(ctx, c2, "missing"); err != nil || len(l) != 0 {
		t.Errorf("List(missing) = %v, %v", l, err)
	}

	// Diff against git's own, including a directory that became a file.
	for _, pair := range [][2]Hash{{{}, c1}, {c1, c2}, {c2, c3}, {c3, c1}} {
		got, err := s.Diff(ctx, pair[0], pair[1])
		if err != nil {
			t.Fatal(err)
		}
		var gotLines []string
		for _, fc := range got {
			gotLines = append(gotLines, fc.Path)
			var from, to Hash
			if !pair[0].IsZero() {
				from, _ = s.BlobOf(ctx, pair[0], fc.Path)
			}
			to, _ = s.BlobOf(ctx, pair[1], fc.Path)
			if fc.From != from || fc.To != to {
				t.Errorf("Diff %s: %v->%v, want %v->%v", fc.Path, fc.From, fc.To, from, to)
			}
		}
		from := pair[0].String()
		if pair[0].IsZero() {
			from = emptyTree.String()
		}
		want := strings.Split(git(t, s.WorkDir(), "diff", "--name-only", "--no-renames", from, pair[1].String()), "\n")
		if diff := cmp.Diff(want, gotLines); diff != "" {
			t.Errorf("Diff %v (-git +got):\n%s", pair, diff)
		}
	}
}

func TestBareRepository(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "kb.git")
	git(t, filepath.Dir(dir), "init", "-q", "--bare", "-b", "trunk", dir)
	s, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.WorkDir() != "" || s.Branch() != "trunk" {
		t.Fatalf("WorkDir %q Branch %q", s.WorkDir(), s.Branch())
	}
	h := commit(t, s, "one", "a/b.md=hello")
	h2 := commit(t, s, "two", "a/c.md=world")
	if data, _, err := s.ReadFile(ctx, h, "a/b.md"); err != nil || string(data) != "hello" {
		t.Fatalf("ReadFile = %q, %v", data, err)
	}
	if got := git(t, dir, "log", "--format=%H", "trunk"); got != h2.String()+"\n"+h.String() {
		t.Fatalf("git log: %s", got)
	}
	if got := git(t, dir, "show", "trunk:a/c.md"); got != "world" {
		t.Fatalf("show: %q", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "index")); !os.IsNotExist(err) {
		t.Errorf("bare repository got an index")
	}
	fsck(t, dir)
	// A clone pushes back through git: pt's objects and refs are ordinary.
	clone := filepath.Join(t.TempDir(), "clone")
	git(t, filepath.Dir(clone), "clone", "-q", dir, clone)
	if got := readFile(t, filepath.Join(clone, "a/b.md")); got != "hello" {
		t.Errorf("clone a/b.md = %q", got)
	}
}

func TestLinkedWorktreeAndSubdir(t *testing.T) {
	ctx := context.Background()
	s := newRepo(t)
	commit(t, s, "one", "kb/a.md=1")
	// Open from a subdirectory finds the repository above.
	s2, err := Open(ctx, filepath.Join(s.WorkDir(), "kb"))
	if err != nil || s2.WorkDir() != s.WorkDir() {
		t.Fatalf("Open(subdir) = %v, %v", s2, err)
	}
	s2.Close()
	// A linked worktree has a .git file; pt writes its branch there.
	wt := filepath.Join(t.TempDir(), "wt")
	git(t, s.WorkDir(), "worktree", "add", "-q", "-b", "side", wt)
	w, err := Open(ctx, wt)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if w.Branch() != "side" || w.WorkDir() != wt {
		t.Fatalf("Branch %q WorkDir %q", w.Branch(), w.WorkDir())
	}
	commit(t, w, "on side", "kb/b.md=2")
	if got := readFile(t, filepath.Join(wt, "kb/b.md")); got != "2" {
		t.Errorf("work tree kb/b.md = %q", got)
	}
	if st := git(t, wt, "status", "--porcelain", "--untracked-files=all"); st != "" {
		t.Errorf("status:\n%s", st)
	}
	if got := git(t, s.WorkDir(), "show", "side:kb/b.md"); got != "2" {
		t.Errorf("side:kb/b.md = %q", got)
	}
	fsck(t, s.WorkDir())
}

// A path inside a work tree's .git is refused: opened as a bare
// repository, every commit would leave the work tree behind the branch.
func TestOpenRefusesTheGitDirOfAWorkTree(t *testing.T) {
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	for _, p := range []string{".git", ".git/objects"} {
		_, err := Open(context.Background(), filepath.Join(dir, p))
		if err == nil || !strings.Contains(err.Error(), "repository with a work tree") {
			t.Errorf("Open(%s) = %v, want a refusal", p, err)
		}
	}
}

func TestInitOpensExistingAndKeepsBranch(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "master")
	s, err := Init(ctx, dir, "")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Branch() != "master" {
		t.Fatalf("Branch = %q, want the repository's own", s.Branch())
	}
	commit(t, s, "one", "a.md=1")
	if got := git(t, dir, "rev-parse", "--abbrev-ref", "HEAD"); got != "master" {
		t.Fatalf("HEAD on %s", got)
	}
	fsck(t, dir)
}

// A CI runner checks out a commit, detached, with no local branch (GitLab
// fetches origin/<branch> and checks out its hash). The space must read as
// that commit, not as empty, and a batch starts the branch on top of it,
// leaving the detached work tree alone.
func TestDetachedCheckoutWithoutBranches(t *testing.T) {
	ctx := context.Background()
	src := t.TempDir()
	git(t, src, "init", "-q", "-b", "trunk")
	writeFile(t, filepath.Join(src, "a.md"), "hello")
	git(t, src, "add", "a.md")
	git(t, src, "commit", "-q", "-m", "one")
	want := git(t, src, "rev-parse", "HEAD")
	ci := t.TempDir()
	git(t, ci, "init", "-q")
	git(t, ci, "fetch", "-q", src, "+refs/heads/trunk:refs/remotes/origin/trunk")
	git(t, ci, "checkout", "-q", "-f", want)
	s, err := Open(ctx, ci)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	h, err := s.Head(ctx)
	if err != nil || h.String() != want || s.Branch() != "trunk" {
		t.Fatalf("Head %v %v, branch %q: want %s on trunk", h, err, s.Branch(), want)
	}
	if data, _, err := s.ReadFile(ctx, h, "a.md"); err != nil || string(data) != "hello" {
		t.Fatalf("ReadFile = %q, %v", data, err)
	}
	next := commit(t, s, "two", "b.md=world")
	if got := git(t, ci, "rev-parse", "trunk~1"); got != want {
		t.Errorf("trunk's parent %s, want the checked-out commit %s", got, want)
	}
	if got := git(t, ci, "rev-parse", "trunk"); got != next.String() {
		t.Errorf("trunk at %s, want %s", got, next)
	}
	if got := git(t, ci, "rev-parse", "HEAD"); got != want {
		t.Errorf("the detached HEAD moved to %s", got)
	}
	// The next command in the same job finds the branch the first made.
	s.Close()
	s2, err := Open(ctx, ci)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if h, err := s2.Head(ctx); err != nil || h != next || s2.Branch() != "trunk" {
		t.Fatalf("reopened: Head %v %v, branch %q: want %s on trunk", h, err, s2.Branch(), next)
	}
	third := commit(t, s2, "three", "c.md=again")
	if got := git(t, ci, "rev-parse", "trunk~1"); got != next.String() {
		t.Errorf("the third commit's parent is %s, want %s (%s)", got, next, third)
	}
	// A push moves the tracking ref past HEAD; the branch is still found.
	git(t, ci, "update-ref", "refs/remotes/origin/trunk", third.String())
	s2.Close()
	s3, err := Open(ctx, ci)
	if err != nil {
		t.Fatal(err)
	}
	defer s3.Close()
	if h, err := s3.Head(ctx); err != nil || h != third || s3.Branch() != "trunk" {
		t.Fatalf("after a push: Head %v %v, branch %q: want %s on trunk", h, err, s3.Branch(), third)
	}
	fsck(t, ci)
}

// A <branch>.lock left by a writer killed mid-move is cleared when pt next
// opens the repository, so that a person's git commit is not refused; a
// young one (a git command at work) is left alone.
func TestOpenClearsStaleRefLock(t *testing.T) {
	s := newRepo(t)
	commit(t, s, "one", "a.md=a")
	dir := repoDir(s)
	lock := filepath.Join(s.GitDir(), "refs", "heads", s.Branch()+".lock")
	writeFile(t, lock, "")
	old := time.Now().Add(-10 * time.Second)
	os.Chtimes(lock, old, old)
	s2, err := Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	s2.Close()
	if _, err := os.Stat(lock); !os.IsNotExist(err) {
		t.Fatalf("stale %s still there: %v", lock, err)
	}
	writeFile(t, lock, "")
	s3, err := Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	s3.Close()
	if _, err := os.Stat(lock); err != nil {
		t.Errorf("a fresh ref lock was removed: %v", err)
	}
	os.Remove(lock)
}
