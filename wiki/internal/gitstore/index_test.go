package gitstore

import (
	"context"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// indexVersion reads the version from .git/index's header.
func indexVersion(t *testing.T, s *Store) uint32 {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(s.GitDir(), "index"))
	if err != nil {
		t.Fatal(err)
	}
	return binary.BigEndian.Uint32(data[4:8])
}

func TestIndexFormats(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup []string // git update-index arguments
		want  uint32
	}{
		{"v2", nil, 2},
		{"v3 with intent-to-add", nil, 3},
		{"v4 prefix-compressed", []string{"--index-version", "4"}, 4},
		{"untracked cache", []string{"--untracked-cache"}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newRepo(t)
			dir := s.WorkDir()
			commit(t, s, "one", "kb/pages/a.md=1", "kb/pages/b.md=1", "kb/topics/x.md=1", "README=r")
			if tc.setup != nil {
				git(t, dir, append([]string{"update-index"}, tc.setup...)...)
			}
			if tc.want == 3 {
				writeFile(t, filepath.Join(dir, "later.md"), "x")
				git(t, dir, "add", "-N", "later.md")
			}
			// A hand commit gives the index a complete cache-tree.
			writeFile(t, filepath.Join(dir, "kb/pages/hand.md"), "by hand")
			git(t, dir, "add", "kb/pages/hand.md")
			git(t, dir, "commit", "-q", "-m", "hand")
			commit(t, s, "two", "kb/pages/a.md=2", "kb/pages/new/c.md=3", "-kb/topics/x.md", "zz.md=z")
			if got := indexVersion(t, s); got != tc.want {
				t.Errorf("index version %d, want %d", got, tc.want)
			}
			st := git(t, dir, "status", "--porcelain", "--untracked-files=all")
			wantSt := ""
			if tc.want == 3 {
				wantSt = "A later.md" // intent-to-add, kept
			}
			if strings.TrimSpace(st) != wantSt {
				t.Errorf("status:\n%s", st)
			}
			// With an invalidated cache-tree, git writes the tree we committed.
			if tc.want != 3 {
				if tree, head := git(t, dir, "write-tree"), git(t, dir, "rev-parse", "HEAD^{tree}"); tree != head {
					t.Errorf("git write-tree %s, HEAD tree %s: stale cache-tree", tree, head)
				}
			}
			if got := git(t, dir, "ls-files"); !strings.Contains(got, "kb/pages/new/c.md") || strings.Contains(got, "kb/topics/x.md") {
				t.Errorf("ls-files:\n%s", got)
			}
			git(t, dir, "commit", "-q", "--allow-empty", "-m", "git still commits")
			fsck(t, dir)
		})
	}
}

func TestIndexWithConflictElsewhere(t *testing.T) {
	s := newRepo(t)
	dir := s.WorkDir()
	commit(t, s, "one", "c.md=base", "a.md=1")
	git(t, dir, "checkout", "-q", "-b", "other")
	writeFile(t, filepath.Join(dir, "c.md"), "other")
	git(t, dir, "commit", "-q", "-am", "other")
	git(t, dir, "checkout", "-q", "main")
	writeFile(t, filepath.Join(dir, "c.md"), "mine")
	git(t, dir, "commit", "-q", "-am", "mine")
	if _, err := gitErr(dir, "merge", "-q", "other"); err == nil {
		t.Fatal("expected a conflict")
	}
	s2, err := Open(context.Background(), dir) // the branch moved under s: reopen
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	commit(t, s2, "two", "a.md=2")
	if got := git(t, dir, "ls-files", "-u"); !strings.Contains(got, "c.md") {
		t.Errorf("conflict lost: %q", got)
	}
	if got := git(t, dir, "status", "--porcelain"); got != "UU c.md" {
		t.Errorf("status:\n%s", got)
	}
}

func TestSplitIndexIsLeftAlone(t *testing.T) {
	s := newRepo(t)
	dir := s.WorkDir()
	commit(t, s, "one", "a.md=1")
	git(t, dir, "update-index", "--split-index")
	head, _ := s.Head(context.Background())
	res, err := s.Commit(context.Background(), CommitRequest{Parent: head, Changes: files("a.md=2"), Message: "two", Author: sig(1)})
	if err != nil {
		t.Fatal(err)
	}
	if !errors.Is(res.WorktreeErr, errIndexUnsupported) {
		t.Fatalf("WorktreeErr = %v", res.WorktreeErr)
	}
	if _, err := os.Stat(s.journalPath()); !os.IsNotExist(err) {
		t.Errorf("journal kept for an index that will never be supported")
	}
	git(t, dir, "status", "--porcelain") // git still reads its index
	fsck(t, dir)
}

func TestOffsetVarint(t *testing.T) {
	for _, v := range []int{0, 1, 127, 128, 255, 16383, 16384, 1 << 20} {
		b := appendOffsetVarint(nil, v)
		got, n := decodeOffsetVarint(b)
		if got != v || n != len(b) {
			t.Errorf("%d: got %d (%d of %d bytes)", v, got, n, len(b))
		}
	}
}

// An index git wrote is written back byte for byte, whatever its version,
// and an index with entries replaced, added and removed is the same
// whether unchanged entries are copied as runs of the file or encoded one
// by one.
func TestIndexRewriteCopiesUnchangedEntries(t *testing.T) {
	for _, version := range []string{"2", "3", "4"} {
		t.Run("v"+version, func(t *testing.T) {
			s := newRepo(t)
			dir := s.WorkDir()
			var specs []string
			for i := range 50 {
				specs = append(specs, "kb/pages/p"+strings.Repeat("x", i%7)+string(rune('a'+i%26))+"-"+string(rune('a'+i/26))+".md=page")
			}
			commit(t, s, "one", specs...)
			if version == "3" {
				writeFile(t, filepath.Join(dir, "later.md"), "x")
				git(t, dir, "add", "-N", "later.md")
			} else {
				git(t, dir, "update-index", "--index-version", version)
			}
			before := len(strings.Fields(git(t, dir, "ls-files")))
			data, err := os.ReadFile(filepath.Join(s.GitDir(), "index"))
			if err != nil {
				t.Fatal(err)
			}
			idx, err := parseIndex(data)
			if err != nil {
				t.Fatal(err)
			}
			if got := idx.encode(nil); string(got) != string(data) {
				t.Fatalf("index written back differs from git's (%d bytes, git %d)", len(got), len(data))
			}
			h := HashBlob([]byte("new"))
			add, repl := newIndexEntry("kb/pages/new.md", h, modeFile, nil), newIndexEntry(idx.entries[3].name, h, modeFile, nil)
			idx.entries = applyIndexUpdates(idx.entries, map[string]*indexEntry{
				add.name: &add, repl.name: &repl, idx.entries[10].name: nil, idx.entries[11].name: nil,
			})
			runs := idx.encode(nil)
			for i := range idx.entries {
				idx.entries[i].off = -1
			}
			if one := idx.encode(nil); string(runs) != string(one) {
				t.Fatal("copying runs of entries gives another index than encoding each")
			}
			if err := os.WriteFile(filepath.Join(s.GitDir(), "index"), runs, 0o644); err != nil {
				t.Fatal(err)
			}
			if n := len(strings.Fields(git(t, dir, "ls-files"))); n != before-1 {
				t.Errorf("git ls-files lists %d files, want %d (one added, two removed)", n, before-1)
			}
		})
	}
}
