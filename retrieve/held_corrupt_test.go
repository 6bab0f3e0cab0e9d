//go:build !windows

package retrieve

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/ptwiki/pt/content"
)

// A query that finds damage in an index another process holds (it reads
// that process's snapshot) answers from memory and leaves the directory
// alone: deleting it would leave two writers on one path.
func TestDamagedHeldIndexIsNotDeleted(t *testing.T) {
	ctx := context.Background()
	s := newSpace(t)
	eng := openEngine(t, s)
	files := map[string]string{}
	for i := 0; i < 30; i++ {
		files[fmt.Sprintf("pages/p%d.md", i)] = page(content.Meta{Title: fmt.Sprintf("Page %d", i), Topics: []string{"ops"}},
			fmt.Sprintf("# Page %d\n\nThe ledger replay number %d carries idempotency keys and retries writes.\n", i, i))
	}
	put(t, s, files)
	q := Request{Question: "why do ledger replays carry idempotency keys?", Now: testWhen}
	if _, err := eng.Query(ctx, q); err != nil {
		t.Fatal(err)
	}
	eng.Close()
	dir := IndexDir(s)
	pristine := t.TempDir()
	copyFiles(t, dir, pristine)
	segs, _ := filepath.Glob(filepath.Join(pristine, "*.seg"))
	if len(segs) == 0 {
		t.Fatal("no segment written")
	}
	data, _ := os.ReadFile(segs[0])
	for off := 0; off < len(data)-8; off += 97 {
		copyFiles(t, pristine, dir)
		bad := append([]byte(nil), data...)
		copy(bad[off:], []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f})
		os.WriteFile(filepath.Join(dir, filepath.Base(segs[0])), bad, 0o644)
		// Another process's hold on the index: bluge's flock on bluge.pid.
		pid := filepath.Join(dir, "bluge.pid")
		f, err := os.OpenFile(pid, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			t.Fatal(err)
		}
		before, _ := os.Stat(pid)
		res, err := eng.Query(ctx, q)
		after, serr := os.Stat(pid)
		f.Close()
		eng.Close()
		if serr != nil || !os.SameFile(before, after) {
			t.Fatalf("offset %d: the index another process holds was deleted and made again (%v)", off, err)
		}
		if err != nil || res.Trace.Index == "disk" {
			t.Fatalf("offset %d: %v, index %v: want an answer from the holder's snapshot or from memory", off, err, res)
		}
	}
}

// copyFiles replaces the files of to with those of from.
func copyFiles(t *testing.T, from, to string) {
	t.Helper()
	os.RemoveAll(to)
	os.MkdirAll(to, 0o755)
	es, _ := os.ReadDir(from)
	for _, e := range es {
		data, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(to, e.Name()), data, 0o644)
	}
}
