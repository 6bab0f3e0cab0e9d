//go:build !windows

package index

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/blugelabs/bluge/index"
)

// TestLoadWaitsOutAHeldSegmentLock is the reproduction of a batch refused
// with "error opening new segment": a forked child holds the copy of the
// descriptor bluge wrote a segment through, and with it its exclusive lock,
// when bluge loads the segment. A second open file description holding the
// lock for a moment stands in for the child.
func TestLoadWaitsOutAHeldSegmentLock(t *testing.T) {
	dir := t.TempDir()
	ix, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	apply(t, ix, "c1", storagePage("blob1", ""))
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	ids, err := index.NewFileSystemDirectory(dir).List(index.ItemKindSegment)
	if err != nil || len(ids) == 0 {
		t.Fatalf("segments listed: %v %v", ids, err)
	}
	id := ids[0]
	path := filepath.Join(dir, fmt.Sprintf("%012x%s", id, index.ItemKindSegment))
	hold := func(d time.Duration) {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			t.Fatal(err)
		}
		time.AfterFunc(d, func() { f.Close() })
	}

	plain := index.NewFileSystemDirectory(dir)
	hold(300 * time.Millisecond)
	if _, _, err := plain.Load(index.ItemKindSegment, id); err == nil || !isLockHeld(err) {
		t.Fatalf("bluge's own directory loaded a locked segment: %v", err)
	}
	time.Sleep(400 * time.Millisecond)

	patient := patientDirectory{Directory: index.NewFileSystemDirectory(dir), patience: 5 * time.Second}
	hold(100 * time.Millisecond)
	data, closer, err := patient.Load(index.ItemKindSegment, id)
	if err != nil {
		t.Fatalf("load after the lock went: %v", err)
	}
	if data.Len() == 0 {
		t.Error("the loaded segment is empty")
	}
	closer.Close()

	impatient := patientDirectory{Directory: index.NewFileSystemDirectory(dir), patience: 0}
	hold(300 * time.Millisecond)
	if _, _, err := impatient.Load(index.ItemKindSegment, id); err == nil {
		t.Fatal("a lock held past the patience was waited out")
	}
}

// TestApplyWhileForking applies batches to an index on disk while two
// goroutines fork and exec processes without pause, as pt does when it runs
// git beside a kept index. Without the patient directory a batch failed
// within the first twenty here.
func TestApplyWhileForking(t *testing.T) {
	dir := t.TempDir()
	ix, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	var stop atomic.Bool
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			for !stop.Load() {
				_ = exec.Command("true").Run()
			}
		})
	}
	defer wg.Wait()
	defer stop.Store(true)
	for i := range 100 {
		doc := Doc{ID: "pages/a.md", Path: "pages/a.md", Type: "page", Title: fmt.Sprint("Alpha ", i)}
		if err := ix.Apply(context.Background(), fmt.Sprintf("c%d", i), []Doc{doc}, nil); err != nil {
			t.Fatalf("batch %d: %v", i, err)
		}
	}
}
