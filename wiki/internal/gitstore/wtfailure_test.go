package gitstore

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// failWrites makes s fail to write any work-tree file named base, as a
// full disk does, and writes every other one.
func failWrites(s *Store, base string) {
	s.writeFile = func(full string, data []byte, mode uint32) error {
		if filepath.Base(full) == base {
			return &fs.PathError{Op: "write", Path: filepath.Join(filepath.Dir(full), ".pt-tmp-1"), Err: syscall.ENOSPC}
		}
		return writeFileAtomic(full, data, mode)
	}
}

// A work-tree file that cannot be written before the branch moves
// abandons the batch: it is never taken for a person's edit, nothing
// lands, and the work tree and index stay as the branch has them.
func TestFailedWriteBeforeTheMoveAbandonsTheBatch(t *testing.T) {
	ctx := context.Background()
	s := newRepo(t)
	dir := s.WorkDir()
	base := commit(t, s, "one", "a.md=1")
	failWrites(s, "b.md")
	res, err := s.Commit(ctx, CommitRequest{Parent: base, Changes: files("a.md=2", "b.md=new"), Message: "two", Author: sig(1)})
	if err == nil {
		t.Fatalf("commit succeeded (skipped %v); want the write failure", res.SkippedWorktree)
	}
	for _, want := range []string{"b.md", "disk is full", "nothing was committed"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if strings.Contains(err.Error(), ".pt-tmp-") {
		t.Errorf("error %q names a temp file", err)
	}
	if errors.Is(err, ErrWorktreeIncomplete) {
		t.Errorf("error %v says the batch landed", err)
	}
	if got := git(t, dir, "rev-parse", "HEAD"); got != base.String() {
		t.Errorf("HEAD moved to %s", got)
	}
	if got := readFile(t, filepath.Join(dir, "a.md")); got != "1" {
		t.Errorf("a.md = %q, want the branch's content back", got)
	}
	if st := git(t, dir, "status", "--porcelain", "--untracked-files=all"); st != "" {
		t.Errorf("status:\n%s", st)
	}
	for _, p := range []string{s.journalPath(), filepath.Join(s.GitDir(), "index.lock")} {
		if _, err := os.Stat(p); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s left behind", p)
		}
	}
	s.writeFile = nil
	commit(t, s, "two", "a.md=2", "b.md=new")
	fsck(t, dir)
}

// A work-tree file that cannot be written after the branch moved (a git
// command held index.lock, so the branch went first) leaves the journal,
// reports the work tree incomplete, holds git's commits off, and is
// finished by the next Open.
func TestFailedWriteAfterTheMoveIsFinishedLater(t *testing.T) {
	ctx := context.Background()
	s := newRepo(t)
	dir := s.WorkDir()
	base := commit(t, s, "one", "a.md=1")
	gitLock := filepath.Join(s.GitDir(), "index.lock")
	writeFile(t, gitLock, "DIRC") // a git command writing the index
	failWrites(s, "b.md")
	res, err := s.Commit(ctx, CommitRequest{Parent: base, Changes: files("a.md=2", "b.md=new"), Message: "two", Author: sig(1)})
	if err != nil {
		t.Fatal(err)
	}
	if !errors.Is(res.WorktreeErr, ErrWorktreeIncomplete) || !strings.Contains(res.WorktreeErr.Error(), "b.md") {
		t.Fatalf("WorktreeErr = %v, want the work tree incomplete at b.md", res.WorktreeErr)
	}
	if len(res.SkippedWorktree) > 0 {
		t.Errorf("skipped %v: a failed write is not a person's edit", res.SkippedWorktree)
	}
	if got := git(t, dir, "rev-parse", "HEAD"); got != res.Hash.String() || res.Hash == base {
		t.Fatalf("HEAD %s, want the batch %s", got, res.Hash)
	}
	if _, err := os.Stat(s.journalPath()); err != nil {
		t.Fatalf("journal: %v", err)
	}

	// The git command ends; a second attempt still cannot write: now pt
	// holds git off, so `git commit -a` cannot record b.md as deleted.
	os.Remove(gitLock)
	if err := s.finishPending(ctx); !errors.Is(err, ErrWorktreeIncomplete) {
		t.Fatalf("finishPending = %v, want the work tree incomplete", err)
	}
	if out, err := gitErr(dir, "commit", "-qam", "by hand"); err == nil {
		t.Fatalf("git commit -a succeeded while the work tree lacks b.md:\n%s", out)
	}
	if got := git(t, dir, "rev-parse", "HEAD"); got != res.Hash.String() {
		t.Fatalf("HEAD %s after the refused git commit", got)
	}

	s.writeFile = nil
	s2, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if got := readFile(t, filepath.Join(dir, "b.md")); got != "new" {
		t.Errorf("b.md = %q", got)
	}
	if st := git(t, dir, "status", "--porcelain", "--untracked-files=all"); st != "" {
		t.Errorf("status after Open:\n%s", st)
	}
	for _, p := range []string{s.journalPath(), gitLock} {
		if _, err := os.Stat(p); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s left behind", p)
		}
	}
	fsck(t, dir)
}
