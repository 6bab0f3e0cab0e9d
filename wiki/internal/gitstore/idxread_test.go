package gitstore

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
)

// A repository packed by git itself (deltas, one large pack with its
// index read into memory) reads back every file through a new Store, and
// a pack that pt writes later is found beside it.
func TestReadGitRepackedRepository(t *testing.T) {
	ctx := context.Background()
	s := newRepo(t)
	dir := s.WorkDir()
	var specs []string
	for i := range 300 {
		specs = append(specs, fmt.Sprintf("pages/p%d.md=page %d, much like its neighbours, with the same long sentence", i, i))
	}
	commit(t, s, "import: pages", specs...)
	commit(t, s, "ingest: edit", "pages/p7.md=page 7 edited")
	s.Close()
	git(t, dir, "repack", "-a", "-d", "-q")
	if idx, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "*.idx")); len(idx) != 1 {
		t.Fatalf("git repack left %d pack indexes, want 1", len(idx))
	}

	s2, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	head, err := s2.Head(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{0, 7, 299} {
		data, _, err := s2.ReadFile(ctx, head, fmt.Sprintf("pages/p%d.md", i))
		want := fmt.Sprintf("page %d, much like its neighbours, with the same long sentence", i)
		if i == 7 {
			want = "page 7 edited"
		}
		if err != nil || string(data) != want {
			t.Errorf("pages/p%d.md: %q, %v; want %q", i, data, err, want)
		}
	}
	commit(t, s2, "ingest: after the repack", "pages/new.md=new", "pages/p1.md=page 1 edited")
	head, _ = s2.Head(ctx)
	if data, _, err := s2.ReadFile(ctx, head, "pages/p1.md"); err != nil || string(data) != "page 1 edited" {
		t.Errorf("pages/p1.md after the repack: %q, %v", data, err)
	}
	fsck(t, dir)
}
