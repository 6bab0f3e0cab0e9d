package gitstore

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTreeBuilding(t *testing.T) {
	tests := []struct {
		name    string
		base    []string // committed first
		change  []string
		want    []string // path=content after, sorted
		wantErr error
	}{
		{
			name:   "nested adds",
			change: []string{"a/b/c/d.md=d", "a/b/e.md=e", "top.md=t", "a/f.md=f"},
			want:   []string{"a/b/c/d.md=d", "a/b/e.md=e", "a/f.md=f", "top.md=t"},
		},
		{
			name:   "add beside existing",
			base:   []string{"a/x.md=x", "b/y.md=y"},
			change: []string{"a/z.md=z"},
			want:   []string{"a/x.md=x", "a/z.md=z", "b/y.md=y"},
		},
		{
			name:   "modify",
			base:   []string{"a/x.md=x", "b/y.md=y"},
			change: []string{"a/x.md=x2"},
			want:   []string{"a/x.md=x2", "b/y.md=y"},
		},
		{
			name:   "delete last file of nested dirs",
			base:   []string{"a/b/c/d.md=d", "keep.md=k"},
			change: []string{"-a/b/c/d.md"},
			want:   []string{"keep.md=k"},
		},
		{
			name:   "delete everything",
			base:   []string{"a/b.md=b"},
			change: []string{"-a/b.md"},
			want:   nil,
		},
		{
			name:   "delete missing path is a no-op beside a real change",
			base:   []string{"a.md=a"},
			change: []string{"-nope/x.md", "b.md=b"},
			want:   []string{"a.md=a", "b.md=b"},
		},
		{
			name:   "file becomes directory when the request deletes it",
			base:   []string{"a=file", "z.md=z"},
			change: []string{"-a", "a/b.md=b"},
			want:   []string{"a/b.md=b", "z.md=z"},
		},
		{
			name:   "directory becomes file when the request empties it",
			base:   []string{"a/x.md=x", "a/y/z.md=z"},
			change: []string{"-a/x.md", "-a/y/z.md", "a=file"},
			want:   []string{"a=file"},
		},
		{
			name:    "file in the way of a directory",
			base:    []string{"a=file"},
			change:  []string{"a/b.md=b"},
			wantErr: ErrPathConflict,
		},
		{
			name:    "directory in the way of a file",
			base:    []string{"a/x.md=x"},
			change:  []string{"a=file"},
			wantErr: ErrPathConflict,
		},
		{
			name:    "deleting a directory",
			base:    []string{"a/x.md=x"},
			change:  []string{"-a"},
			wantErr: ErrPathConflict,
		},
		{
			name:    "same content is no change",
			base:    []string{"a/x.md=x"},
			change:  []string{"a/x.md=x", "-gone.md"},
			wantErr: ErrNoChange,
		},
		{
			name:    "bad path",
			change:  []string{"a/../b=x"},
			wantErr: ErrBadPath,
		},
		{
			name:    "dot git component",
			change:  []string{"x/.GIT/config=x"},
			wantErr: ErrBadPath,
		},
		{
			name:   "git tree order: names that sort around a directory",
			change: []string{"foo/x=1", "foo.txt=2", "foo-bar=3", "foo0=4", "fo=5"},
			want:   []string{"fo=5", "foo-bar=3", "foo.txt=2", "foo/x=1", "foo0=4"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			s := newRepo(t)
			var parent Hash
			if len(tt.base) > 0 {
				parent = commit(t, s, "base", tt.base...)
			}
			res, err := s.Commit(ctx, CommitRequest{Parent: parent, Changes: files(tt.change...), Message: "change", Author: sig(1)})
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Commit error = %v, want %v", err, tt.wantErr)
			}
			if res.WorktreeErr != nil || len(res.SkippedWorktree) > 0 {
				t.Fatalf("work tree: %v, skipped %v", res.WorktreeErr, res.SkippedWorktree)
			}
			head, _ := s.Head(ctx)
			if tt.wantErr != nil {
				if head != parent {
					t.Fatalf("branch moved on error: %s, want %s", head, parent)
				}
				if tt.wantErr == ErrNoChange && res.Hash != parent {
					t.Fatalf("ErrNoChange result %s, want parent %s", res.Hash, parent)
				}
				return
			}
			if head != res.Hash {
				t.Fatalf("head %s, want %s", head, res.Hash)
			}
			entries, err := s.List(ctx, head, "")
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range entries {
				data, err := s.ReadBlob(ctx, e.Blob)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, e.Path+"="+string(data))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("tree (-want +got):\n%s", diff)
			}
			if !sort.StringsAreSorted(got) {
				t.Errorf("List not sorted: %v", got)
			}
			// Cross-check with git: the same files, a clean fsck, a clean status.
			dir := s.WorkDir()
			fsck(t, dir)
			var gitGot []string
			if out := git(t, dir, "ls-tree", "-r", "--name-only", "HEAD"); out != "" {
				gitGot = strings.Split(out, "\n")
			}
			var wantPaths []string
			for _, w := range tt.want {
				p, _, _ := strings.Cut(w, "=")
				wantPaths = append(wantPaths, p)
			}
			if diff := cmp.Diff(wantPaths, gitGot); diff != "" {
				t.Errorf("git ls-tree (-want +got):\n%s", diff)
			}
			for _, w := range tt.want {
				p, data, _ := strings.Cut(w, "=")
				if got := git(t, dir, "show", "HEAD:"+p); got != data {
					t.Errorf("git show HEAD:%s = %q, want %q", p, got, data)
				}
				if got := readFile(t, filepath.Join(dir, p)); got != data {
					t.Errorf("work tree %s = %q, want %q", p, got, data)
				}
			}
			if st := git(t, dir, "status", "--porcelain", "--untracked-files=all"); st != "" {
				t.Errorf("git status not clean:\n%s", st)
			}
			// Emptied directories are gone from the work tree too.
			if tt.name == "delete last file of nested dirs" {
				if _, err := os.Stat(filepath.Join(dir, "a")); !os.IsNotExist(err) {
					t.Errorf("empty directory a left in work tree: %v", err)
				}
			}
		})
	}
}

func TestNoChangeOnUnbornBranch(t *testing.T) {
	s := newRepo(t)
	res, err := s.Commit(context.Background(), CommitRequest{Changes: files("-x"), Message: "m", Author: sig(0)})
	if !errors.Is(err, ErrNoChange) || !res.Hash.IsZero() {
		t.Fatalf("got %v, %v; want zero hash, ErrNoChange", res.Hash, err)
	}
}

func TestExecutableBitKept(t *testing.T) {
	s := newRepo(t)
	commit(t, s, "add", "run.sh=echo 1")
	dir := s.WorkDir()
	git(t, dir, "update-index", "--chmod=+x", "run.sh")
	os.Chmod(filepath.Join(dir, "run.sh"), 0o755)
	git(t, dir, "commit", "-q", "-m", "chmod")
	commit(t, s, "edit", "run.sh=echo 2")
	if got := git(t, dir, "ls-tree", "HEAD", "run.sh"); !strings.HasPrefix(got, "100755 ") {
		t.Errorf("mode lost: %s", got)
	}
	if st := git(t, dir, "status", "--porcelain"); st != "" {
		t.Errorf("status:\n%s", st)
	}
	fsck(t, dir)
}

func TestTreeLessMatchesGit(t *testing.T) {
	// git mktree sorts entries itself; our encoding must produce the same tree.
	s := newRepo(t)
	dir := s.WorkDir()
	blob := git(t, dir, "hash-object", "-w", "--stdin")
	sub := git(t, dir, "mktree", "--missing")
	names := []string{"a", "a.b", "a-b", "a0", "b", "ab"}
	var entries []treeEntry
	var lines []string
	for i, n := range names {
		h, _ := ParseHash(blob)
		mode := modeFile
		if i%2 == 0 {
			h, _ = ParseHash(sub)
			mode = modeTree
		}
		entries = append(entries, treeEntry{name: n, mode: mode, hash: h})
		kind := "blob"
		if mode == modeTree {
			kind = "tree"
		}
		lines = append(lines, strings.Join([]string{map[bool]string{true: "040000", false: "100644"}[mode == modeTree], kind, h.String()}, " ")+"\t"+n)
	}
	want := gitStdin(t, dir, strings.Join(lines, "\n")+"\n", "mktree", "--missing")
	if got := hashObject(treeObject, encodeTree(entries)).String(); got != want {
		t.Fatalf("tree %s, git mktree %s", got, want)
	}
}

// sortTree, which merges the entries a tree gains into its sorted old
// ones, orders any list as a full sort in git tree order does, and parseTree
// reads back what encodeTree wrote.
func TestSortTreeMatchesAFullSort(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	names := []string{"a", "a.md", "a-b", "a0", "ab", "b", "b.md", "c", "pages", "pages.md", "z"}
	for round := range 500 {
		seen := map[string]bool{}
		var entries []treeEntry
		for range r.IntN(12) {
			name := names[r.IntN(len(names))]
			if r.IntN(3) == 0 {
				name += fmt.Sprint(r.IntN(5))
			}
			if seen[name] {
				continue
			}
			seen[name] = true
			mode := modeFile
			if r.IntN(3) == 0 {
				mode = modeTree
			}
			entries = append(entries, treeEntry{name: name, mode: mode, hash: Hash{byte(len(entries))}})
		}
		// A sorted prefix, as a rebuilt tree has, then the rest in any order.
		k := r.IntN(len(entries) + 1)
		sort.Slice(entries[:k], func(i, j int) bool { return treeLess(entries[i], entries[j]) })
		want := slices.Clone(entries)
		sort.Slice(want, func(i, j int) bool { return treeLess(want[i], want[j]) })
		got, err := parseTree(encodeTree(entries))
		if err != nil || !slices.Equal(got, want) {
			t.Fatalf("round %d: %v, %v; want %v", round, got, err, want)
		}
	}
}
