package gitstore

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadBlobs reads the same blobs with ReadBlobs and one by one with
// ReadBlob, in a repository that holds them as pt writes them (whole, in
// packs), as git repack writes them (many as deltas), loose, and twice in
// one request.
func TestReadBlobs(t *testing.T) {
	ctx := context.Background()
	s := newRepo(t)
	dir := s.WorkDir()
	var specs []string
	for i := range 200 {
		specs = append(specs, fmt.Sprintf("pages/p%d.md=page %d, %s", i, i, strings.Repeat("much like its neighbours, with the same long sentence. ", i%7+1)))
	}
	commit(t, s, "import: pages", specs...)
	commit(t, s, "ingest: edit", "pages/p7.md=page 7 edited")
	loose := strings.TrimSpace(gitStdin(t, dir, "a loose blob\n", "hash-object", "-w", "--stdin"))

	check := func(t *testing.T, s *Store) {
		head, err := s.Head(ctx)
		if err != nil {
			t.Fatal(err)
		}
		es, err := s.List(ctx, head, "")
		if err != nil {
			t.Fatal(err)
		}
		lh, _ := ParseHash(loose)
		blobs := []Hash{lh}
		for _, e := range es {
			blobs = append(blobs, e.Blob)
		}
		blobs = append(blobs, blobs[5]) // the same blob twice
		got := make([][]byte, len(blobs))
		calls := 0
		err = s.ReadBlobs(ctx, blobs, func(i int, data []byte) error {
			calls++
			if got[i] != nil {
				t.Errorf("blob %d read twice", i)
			}
			got[i] = data
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if calls != len(blobs) {
			t.Errorf("%d calls for %d blobs", calls, len(blobs))
		}
		for i, h := range blobs {
			want, err := s.ReadBlob(ctx, h)
			if err != nil {
				t.Fatal(err)
			}
			if string(got[i]) != string(want) {
				t.Errorf("blob %s: ReadBlobs gave %q, ReadBlob %q", h, got[i], want)
			}
		}
		stop := errors.New("stop")
		if err := s.ReadBlobs(ctx, blobs, func(int, []byte) error { return stop }); !errors.Is(err, stop) {
			t.Errorf("fn's error: got %v", err)
		}
		missing := hashObject(blobObject, []byte("never written"))
		if err := s.ReadBlobs(ctx, []Hash{missing}, func(int, []byte) error { return nil }); !errors.Is(err, ErrNotFound) {
			t.Errorf("a missing blob: got %v, want ErrNotFound", err)
		}
	}
	t.Run("pt packs", func(t *testing.T) {
		check(t, s)
		// Every blob of the tree is read from its pack, none the slow way.
		if whole, other := packedBlobs(t, s); whole < 200 || other != 0 {
			t.Errorf("read %d blobs from pt's packs and left %d, want at least 200 and none", whole, other)
		}
	})
	s.Close()

	git(t, dir, "repack", "-a", "-d", "-f", "-q", "--window=50", "--depth=50")
	if v := git(t, dir, "verify-pack", "-v", findPackIdx(t, dir)); !strings.Contains(v, "chain length = 1") {
		t.Fatalf("git repack wrote no deltas:\n%s", v)
	}
	s2, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	t.Run("git repack", func(t *testing.T) {
		check(t, s2)
		if whole, other := packedBlobs(t, s2); whole == 0 || other == 0 {
			t.Errorf("read %d blobs from git's pack and left %d deltified, want some of each", whole, other)
		}
	})
}

func findPackIdx(t *testing.T, dir string) string {
	t.Helper()
	idx, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "*.idx"))
	if len(idx) != 1 {
		t.Fatalf("%d pack indexes after git repack, want 1", len(idx))
	}
	return idx[0]
}

// packedBlobs counts the blobs of HEAD's tree that ReadBlobs reads from
// their pack itself (whole) and those it leaves to go-git (other).
func packedBlobs(t *testing.T, s *Store) (whole, other int) {
	t.Helper()
	ctx := context.Background()
	head, _ := s.Head(ctx)
	es, err := s.List(ctx, head, "")
	if err != nil {
		t.Fatal(err)
	}
	packs, err := s.packIndexes()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		left := []int{0}
		for _, p := range packs {
			if off, ok := p.find(e.Blob); ok {
				if left, err = readPacked(ctx, p.pack, []packedAt{{0, off}}, []Hash{e.Blob}, func(int, []byte) error { return nil }); err != nil {
					t.Fatal(err)
				}
				break
			}
		}
		if len(left) == 0 {
			whole++
		} else {
			other++
		}
	}
	return whole, other
}
