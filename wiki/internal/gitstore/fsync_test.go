package gitstore

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// A batch pays for the fsyncs its durability needs, whatever its size: its
// objects as one pack (the pack, its index and their directory), the
// branch's ref (the lock file and its directory), the work-tree journal
// and the .git/index that git reads, and never one per page. Before, each
// of a small batch's ten objects was a loose object with an fsync of its
// own and one of its directory: 26 fsyncs for one ingest.
func TestBatchFsyncs(t *testing.T) {
	s := newRepo(t)
	var seed []string
	for i := range 200 {
		seed = append(seed, fmt.Sprintf("sources/s%d.md=source %d", i, i), fmt.Sprintf("summaries/s%d.md=summary %d", i, i))
	}
	commit(t, s, "import: seed", seed...)

	var mu sync.Mutex
	var got []string
	s.synced = func(p string) {
		mu.Lock()
		defer mu.Unlock()
		rel, err := filepath.Rel(s.GitDir(), p)
		if err != nil || strings.HasPrefix(rel, "..") {
			rel = "OUTSIDE " + p
		}
		got = append(got, filepath.ToSlash(rel))
	}
	commit(t, s, "ingest: one source", "sources/new.md=a new source", "summaries/new.md=its summary",
		"topics/t.md=a spoke", "log.md=one entry")
	s.synced = nil

	kinds := map[string]int{}
	for _, p := range got {
		switch {
		case strings.HasPrefix(p, "objects/pack/tmp_pack_"), strings.HasPrefix(p, "objects/pack/tmp_idx_"):
			kinds["pack files"]++
		case p == "objects/pack":
			kinds["pack directory"]++
		case p == "refs/heads/main.lock", p == "refs/heads":
			kinds["ref"]++
		case strings.HasPrefix(p, "pt/worktree.pending"), p == "pt":
			kinds["journal"]++
		case p == "index.lock":
			kinds["git index"]++
		default:
			t.Errorf("fsync of %s: not one a batch needs", p)
		}
	}
	want := map[string]int{"pack files": 2, "pack directory": 2, "ref": 2, "journal": 2, "git index": 1}
	for k, n := range want {
		if kinds[k] != n {
			t.Errorf("%d fsyncs of the %s, want %d (all: %v)", kinds[k], k, n, got)
		}
	}
	if len(got) > 9 {
		slices.Sort(got)
		t.Errorf("%d fsyncs for one small batch, want at most 9: %v", len(got), got)
	}
	fsck(t, s.WorkDir())
	if out := git(t, s.WorkDir(), "show", "HEAD:sources/new.md"); out != "a new source" {
		t.Errorf("git show: %q", out)
	}
}
