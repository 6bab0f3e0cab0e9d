//go:build linux

package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// smallDisk mounts a 2 MB tmpfs for the test, or skips it where the
// machine does not allow that (not root, no tmpfs).
func smallDisk(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a 2 MB tmpfs at %s (needs root): %v %s", dir, err, bytes.TrimSpace(out))
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v %s", dir, err, out)
		}
	})
	return dir
}

// fillDisk writes a file that leaves about free bytes on the disk at dir
// and returns its path.
func fillDisk(t *testing.T, dir string, free int64) string {
	t.Helper()
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		t.Fatal(err)
	}
	avail := int64(st.Bavail) * st.Bsize
	if avail <= free {
		t.Fatalf("only %d bytes free, want more than %d", avail, free)
	}
	p := filepath.Join(dir, "filler")
	if err := os.WriteFile(p, make([]byte, avail-free), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// bigSource is about 283 KB of prose that compresses well: its git objects
// fit on the nearly full disk, its work-tree file does not.
func bigSource() []byte {
	var b bytes.Buffer
	b.WriteString("# Ledger replay notes\n\n")
	for i := 0; b.Len() < 283<<10; i++ {
		fmt.Fprintf(&b, "The write queue replay of shard %d finished after the ledger outage was resolved.\n", i%50)
	}
	return b.Bytes()
}

// TestIngestOnAFullDisk ingests a source onto a nearly full disk: a work
// tree that cannot be written is never taken for a person's edit. Before
// the branch moves the batch is abandoned; after it moved (a git command
// held the index), the command fails saying the batch landed, git commits
// wait, and the next pt command, a read-only one, writes the missing files.
func TestIngestOnAFullDisk(t *testing.T) {
	t.Setenv("GIT_AUTHOR_NAME", "dana")
	t.Setenv("HOME", t.TempDir())
	disk := smallDisk(t)
	kb := filepath.Join(disk, "kb")
	if code, _, stderr := ptRun(t, "", "--kb", kb, "init", kb); code != 0 {
		t.Fatalf("init: exit %d: %s", code, stderr)
	}
	src := filepath.Join(t.TempDir(), "fill.md")
	if err := os.WriteFile(src, bigSource(), 0o644); err != nil {
		t.Fatal(err)
	}
	filler := fillDisk(t, disk, 200<<10)
	ingest := []string{"ingest", src, "--title", "Fill", "--slug", "fill", "--approved-by", "dana"}

	head := gitOut(t, kb, "rev-parse", "HEAD")
	code, stdout, stderr := ptRun(t, "", append([]string{"--kb", kb}, ingest...)...)
	if code != 1 || !strings.Contains(stderr, "disk is full") || !strings.Contains(stderr, "nothing was committed") {
		t.Fatalf("ingest on a full disk: exit %d, stdout %q, stderr %q; want exit 1 saying the disk is full and nothing was committed", code, stdout, stderr)
	}
	if got := gitOut(t, kb, "rev-parse", "HEAD"); got != head {
		t.Fatalf("HEAD moved from %s to %s", head, got)
	}
	if st := gitOut(t, kb, "status", "--porcelain"); st != "" {
		t.Fatalf("git status after the abandoned batch:\n%s", st)
	}

	// A git command holds the index: the branch moves first, then the work
	// tree cannot follow.
	gitLock := filepath.Join(kb, ".git", "index.lock")
	if err := os.WriteFile(gitLock, []byte("DIRC"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = ptRun(t, "", append([]string{"--kb", kb}, ingest...)...)
	if code != 1 || !strings.Contains(stderr, "landed as commit") || !strings.Contains(stderr, "work tree is incomplete") {
		t.Fatalf("ingest after the move: exit %d, stderr %q; want exit 1 saying the batch landed but the work tree is incomplete", code, stderr)
	}
	landed := gitOut(t, kb, "rev-parse", "HEAD")
	if landed == head {
		t.Fatal("the batch did not land")
	}
	os.Remove(gitLock)

	// Still full: a read-only command cannot finish and says so, and git
	// commits wait (one would record the missing files as deleted).
	if code, _, stderr := ptRun(t, "", "--kb", kb, "log"); code != 1 || !strings.Contains(stderr, "work tree is incomplete") {
		t.Fatalf("pt log on the full disk: exit %d, stderr %q", code, stderr)
	}
	if out, err := exec.Command("git", "-C", kb, "commit", "-qam", "by hand").CombinedOutput(); err == nil {
		t.Fatalf("git commit -a succeeded while the work tree is incomplete:\n%s", out)
	}

	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := ptRun(t, "", "--kb", kb, "topics"); code != 0 {
		t.Fatalf("pt topics after space was freed: exit %d: %s", code, stderr)
	}
	if got := gitOut(t, kb, "rev-parse", "HEAD"); got != landed {
		t.Errorf("HEAD %s, want the landed batch %s", got, landed)
	}
	if st := gitOut(t, kb, "status", "--porcelain"); st != "" {
		t.Errorf("git status after pt finished the work tree:\n%s", st)
	}
	got, err := os.ReadFile(filepath.Join(kb, "sources", "fill.md"))
	if err != nil || !bytes.Equal(got, []byte(gitOut(t, kb, "show", "HEAD:sources/fill.md")+"\n")) {
		t.Errorf("sources/fill.md is not the committed source: %v", err)
	}
}
