package gitstore

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// bulkChanges returns n writes spread over nested directories, each with
// its own content, as a large import produces them.
func bulkChanges(n int, tag string) []string {
	specs := make([]string, n)
	for i := range specs {
		specs[i] = fmt.Sprintf("sources/d%02d/sub%d/p%04d.md=%s page %d\n%s", i%17, i%3, i, tag, i, strings.Repeat("text ", i%50))
	}
	return specs
}

// checkWorktree fails unless every file of HEAD is in the work tree with
// its committed content and git sees nothing to report.
func checkWorktree(t *testing.T, s *Store) {
	t.Helper()
	dir := s.WorkDir()
	if st := git(t, dir, "status", "--porcelain", "--untracked-files=all"); st != "" {
		t.Fatalf("status:\n%s", st)
	}
	// git status trusts the index's stat data; hash the bytes too.
	for _, line := range strings.Split(git(t, dir, "ls-tree", "-r", "HEAD"), "\n") {
		meta, p, _ := strings.Cut(line, "\t")
		f := strings.Fields(meta)
		if got := hashObject(blobObject, []byte(readFile(t, filepath.Join(dir, p)))).String(); got != f[2] {
			t.Fatalf("%s holds blob %s, HEAD has %s", p, got, f[2])
		}
	}
	fsck(t, dir)
}

// A batch larger than the pack threshold and the worker count is written
// as a pack and to the work tree in parallel: every file lands with its own
// content, a directory can become a file and a file a directory in the same
// batch, and the index is left clean.
func TestBulkCommitWorktree(t *testing.T) {
	s := newRepo(t)
	first := append(bulkChanges(300, "one"), "swap/a.md=file becomes dir", "dir/x.md=dir becomes file", "dir/y/z.md=deep")
	commit(t, s, "one", first...)
	checkWorktree(t, s)
	packs, _ := filepath.Glob(filepath.Join(s.GitDir(), "objects/pack/*.pack"))
	if len(packs) != 1 {
		t.Fatalf("packs = %v, want one pack for a batch of %d files", packs, len(first))
	}

	second := append(bulkChanges(300, "two"), "-swap/a.md", "swap/a.md/inner.md=now a dir", "-dir/x.md", "-dir/y/z.md", "dir=now a file")
	for i := 0; i < 300; i += 7 {
		second = append(second, fmt.Sprintf("-sources/d%02d/sub%d/p%04d.md", i%17, i%3, i))
	}
	// the deletes replace writes of the same path
	seen := map[string]int{}
	var specs []string
	for _, sp := range second {
		p, _, _ := strings.Cut(strings.TrimPrefix(sp, "-"), "=")
		if j, ok := seen[p]; ok {
			specs[j] = sp
			continue
		}
		seen[p] = len(specs)
		specs = append(specs, sp)
	}
	commit(t, s, "two", specs...)
	checkWorktree(t, s)
	if got := readFile(t, filepath.Join(s.WorkDir(), "dir")); got != "now a file" {
		t.Errorf("dir = %q", got)
	}
	if _, err := os.Stat(filepath.Join(s.WorkDir(), "sources/d00/sub0/p0000.md")); !os.IsNotExist(err) {
		t.Errorf("deleted file still there: %v", err)
	}
}

// A bulk update journaled by a process that died before touching the work
// tree is finished by the next Open, which has no content in memory and
// reads every blob back from the pack.
func TestBulkPendingJournalFinishedFromPack(t *testing.T) {
	ctx := context.Background()
	s := newRepo(t)
	dir := s.WorkDir()
	commit(t, s, "base", "kb.yaml=x")
	head, _ := s.Head(ctx)
	s.mu.Lock()
	b := &treeBuilder{s: s}
	trie, _ := changeTrie(files(bulkChanges(200, "bulk")...))
	root, _, err := b.build(mustTree(t, s, head), trie, "")
	if err != nil {
		t.Fatal(err)
	}
	data := encodeCommit(root, []Hash{head}, sig(1), sig(1), "bulk")
	h := hashObject(commitObject, data)
	b.objects = append(b.objects, object{hash: h, typ: commitObject, data: data})
	if err := s.writeObjects(b.objects); err != nil {
		t.Fatal(err)
	}
	if _, err := s.journalWorktree(h, b.changes); err != nil {
		t.Fatal(err)
	}
	if err := s.updateRef(head, h, "bulk", sig(1)); err != nil {
		t.Fatal(err)
	}
	rewriteJournalPID(t, s, deadPID(t))
	s.mu.Unlock()

	s2, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if _, err := os.Stat(s.journalPath()); !os.IsNotExist(err) {
		t.Errorf("journal still there: %v", err)
	}
	checkWorktree(t, s2)
	if n := len(strings.Split(git(t, dir, "ls-files"), "\n")); n != 201 {
		t.Errorf("%d files tracked, want 201", n)
	}
}
