package gitstore

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Every object of a repository that git itself packed with long delta
// chains reads back, without go-git, as `git cat-file` prints it: with
// deltas against an offset (git's default) and against an id, and as
// loose objects.
func TestReadObjectsAsGitDoes(t *testing.T) {
	for _, c := range []struct {
		name   string
		repack []string // nil: the objects stay loose
	}{
		{"offset deltas", []string{"repack", "-a", "-d", "-f", "-q", "--depth=50", "--window=50"}},
		{"id deltas", []string{"-c", "repack.useDeltaBaseOffset=false", "repack", "-a", "-d", "-f", "-q", "--depth=50", "--window=50"}},
		{"loose", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newRepo(t)
			dir := s.WorkDir()
			for round := range 6 {
				var specs []string
				for i := range 40 {
					specs = append(specs, fmt.Sprintf("pages/p%d.md=%s", i, strings.Repeat(fmt.Sprintf("page %d line of round %d, much like its neighbours.\n", i, round/2), 20+round)))
				}
				commit(t, s, fmt.Sprintf("import: round %d", round), specs...)
			}
			s.Close()
			if c.repack != nil {
				git(t, dir, c.repack...)
				if !strings.Contains(git(t, dir, "count-objects", "-v"), "count: 0") {
					t.Fatal("objects left loose after the repack")
				}
				deltas := 0
				for _, line := range strings.Split(git(t, dir, "verify-pack", "-v", packIndexPath(t, dir)), "\n") {
					if f := strings.Fields(line); len(f) >= 7 && len(f[0]) == 40 {
						deltas++
					}
				}
				if deltas < 50 {
					t.Fatalf("git repack left %d deltas; the test needs chains", deltas)
				}
			} else {
				unpackAll(t, dir)
			}
			s2, err := Open(context.Background(), dir)
			if err != nil {
				t.Fatal(err)
			}
			defer s2.Close()
			ids := strings.Fields(git(t, dir, "rev-list", "--objects", "--all", "--no-object-names"))
			want := catFileBatch(t, dir, ids)
			for _, id := range ids {
				h, _ := ParseHash(id)
				typ, data, ok := s2.objs.read(h)
				if !ok {
					t.Fatalf("%s: not read", id)
				}
				w := want[id]
				if string(typ) != w.typ || !bytes.Equal(data, w.data) {
					t.Fatalf("%s: read %s of %d bytes, git says %s of %d", id, typ, len(data), w.typ, len(w.data))
				}
			}
		})
	}
}

// packIndexPath is the one pack index of the repository at dir.
func packIndexPath(t *testing.T, dir string) string {
	t.Helper()
	idx, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "pack-*.idx"))
	if len(idx) != 1 {
		t.Fatalf("want one pack index, found %v", idx)
	}
	return idx[0]
}

// unpackAll turns every pack of the repository at dir into loose objects.
func unpackAll(t *testing.T, dir string) {
	t.Helper()
	packs, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "pack-*.pack"))
	if len(packs) == 0 {
		t.Fatal("no pack to unpack")
	}
	for _, p := range packs {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		// unpack-objects skips what the repository has: move the pack away first.
		os.Remove(p)
		os.Remove(strings.TrimSuffix(p, ".pack") + ".idx")
		gitStdin(t, dir, string(data), "unpack-objects", "-q")
	}
}

type catFile struct {
	typ  string
	data []byte
}

// catFileBatch reads objects with `git cat-file --batch`.
func catFileBatch(t *testing.T, dir string, ids []string) map[string]catFile {
	t.Helper()
	cmd := exec.Command("git", "cat-file", "--batch")
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(strings.Join(ids, "\n") + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git cat-file --batch: %v", err)
	}
	got := map[string]catFile{}
	for len(out) > 0 {
		line, rest, _ := bytes.Cut(out, []byte{'\n'})
		f := strings.Fields(string(line))
		if len(f) != 3 {
			t.Fatalf("git cat-file --batch: %q", line)
		}
		n, _ := strconv.Atoi(f[2])
		got[f[0]] = catFile{typ: f[1], data: rest[:n]}
		out = rest[n+1:]
	}
	return got
}
