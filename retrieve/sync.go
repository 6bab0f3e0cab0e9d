package retrieve

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/ptwiki/pt/retrieve/internal/index"
	"github.com/ptwiki/pt/wiki"
)

// indexDirName is the index's directory under the space's state directory.
const indexDirName = "index"

// IndexDir is where a space's full-text index lives: under .git, never
// committed, safe to delete.
func IndexDir(s *wiki.Space) string { return filepath.Join(s.StateDir(), indexDirName) }

// open holds the on-disk indexes this process has open, one per directory, so
// that a long-running process (the MCP server) queries a warm index and
// bluge's one-writer rule is never hit from inside one process.
//
// When the directory is busy (another process holds it), the holder's
// snapshot or an index in memory stands in (acquire), and Open is not tried
// again for busyRetry. A refused Open costs a lock probe on Unix, but on
// Windows bluge leaks goroutines on every one; and a server beside another
// pt process should take the index over soon after that process exits.
var open = struct {
	sync.Mutex
	m         map[string]*index.Index
	mem       map[string]*shared
	busyUntil map[string]time.Time
}{m: map[string]*index.Index{}, mem: map[string]*shared{}, busyUntil: map[string]time.Time{}}

// busyRetry is how long a busy index directory is left alone.
var busyRetry = 5 * time.Second

// updateMu serializes updates of the shared on-disk indexes, so that
// concurrent queries in a server do not re-index the same diff twice.
var updateMu sync.Mutex

// handle is an index ready to search at a commit.
type handle struct {
	ix   *index.Index
	kind string // "disk", "snapshot" or "memory"
	done func() // called by release, when set
}

// acquire returns the space's index brought up to head. The on-disk index is
// opened once per process and kept; when another process holds it (bluge
// allows one writer) the query reads that process's latest snapshot if it is
// at head (or soon is: awaitSnapshot), and otherwise an index built in
// memory; when it is corrupt it is deleted and rebuilt. The index is a
// cache: no failure of it is fatal while git can be read.
func acquire(ctx context.Context, s *wiki.Space, head wiki.Rev) (*handle, error) {
	dir := IndexDir(s)
	rw := readersOf(dir)
	rw.RLock()
	ix, err := diskIndex(dir)
	if err == nil {
		return updateDisk(ctx, s, dir, ix, head)
	}
	rw.RUnlock()
	if errors.Is(err, index.ErrBusy) {
		h, units := snapshotAt(dir, head)
		if h == nil && units > 0 && !standIn(dir) {
			h = awaitSnapshot(ctx, dir, head, units)
		}
		if h != nil {
			return h, nil
		}
	}
	return fromMemory(ctx, s, dir, head)
}

// dropMemory retires the process's in-memory index of dir (found damaged),
// so that the next fromMemory builds a new one.
func dropMemory(dir string) {
	open.Lock()
	defer open.Unlock()
	if mem := open.mem[dir]; mem != nil {
		mem.retire()
		delete(open.mem, dir)
	}
}

// fromMemory answers from an index of dir's space built in memory and
// kept for the process (busy elsewhere, or the disk refused).
func fromMemory(ctx context.Context, s *wiki.Space, dir string, head wiki.Rev) (*handle, error) {
	open.Lock()
	mem := open.mem[dir]
	if mem == nil {
		ix, err := index.OpenMemory()
		if err != nil {
			open.Unlock()
			return nil, err
		}
		mem = &shared{ix: ix}
		open.mem[dir] = mem
	}
	h := mem.take(&open.Mutex, "memory")
	open.Unlock()
	updateMu.Lock()
	err := update(ctx, s, h.ix, head)
	updateMu.Unlock()
	if err != nil {
		h.release()
		return nil, err
	}
	return h, nil
}

// standIn reports whether this process keeps an index of dir in memory.
func standIn(dir string) bool {
	open.Lock()
	defer open.Unlock()
	return open.mem[dir] != nil
}

// diskIndex returns the process's on-disk index of dir, opening it on first
// use, or an error wrapping index.ErrBusy while another process holds it.
func diskIndex(dir string) (*index.Index, error) {
	open.Lock()
	defer open.Unlock()
	if ix := open.m[dir]; ix != nil {
		return ix, nil
	}
	if time.Now().Before(open.busyUntil[dir]) {
		return nil, index.ErrBusy
	}
	ix, err := openOrReset(dir)
	switch {
	case err == nil:
		open.m[dir] = ix
		delete(open.busyUntil, dir)
		if mem := open.mem[dir]; mem != nil {
			mem.retire()
			delete(open.mem, dir)
		}
	case errors.Is(err, index.ErrBusy):
		open.busyUntil[dir] = time.Now().Add(busyRetry)
	}
	return ix, err
}

// updateDisk brings the process's on-disk index to head, rebuilding it when
// the incremental update fails. It is called with a read of dir's readers
// held, which the returned handle's release ends (an error ends it at once).
func updateDisk(ctx context.Context, s *wiki.Space, dir string, ix *index.Index, head wiki.Rev) (*handle, error) {
	rw := readersOf(dir)
	updateMu.Lock()
	err := update(ctx, s, ix, head)
	updateMu.Unlock()
	if err == nil {
		return &handle{ix: ix, kind: "disk", done: rw.RUnlock}, nil
	}
	rw.RUnlock()
	if !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
		// A failed incremental update (the recorded commit is gone after
		// a history rewrite, say) is repaired by a full rebuild.
		if rerr := resetAt(ctx, s, dir, head); rerr == nil {
			return acquireOpen(dir)
		}
		// The rebuild could not take the directory (another process
		// did, a server, after it was deleted): the index is a cache,
		// so the question is answered from memory.
		return fromMemory(ctx, s, dir, head)
	}
	return nil, err
}

// Refresh brings the space's on-disk index to its head when this process
// holds the index or can take it, and does nothing while another process
// holds it. A server calls it on a timer, so that its index follows commits
// made elsewhere (a person's git commit, pt ingest in a terminal) before the
// next question arrives, and so that a query run beside the server finds a
// snapshot at head to read.
func Refresh(ctx context.Context, s *wiki.Space) error {
	head, err := s.Head(ctx)
	if err != nil || head == "" {
		return err
	}
	dir := IndexDir(s)
	rw := readersOf(dir)
	rw.RLock()
	ix, err := diskIndex(dir)
	switch {
	case errors.Is(err, index.ErrBusy):
		rw.RUnlock()
		return nil
	case err != nil:
		rw.RUnlock()
		return fmt.Errorf("refresh index: %w", err)
	case ix.Commit() == string(head):
		rw.RUnlock()
		return nil
	}
	h, err := updateDisk(ctx, s, dir, ix, head)
	if err != nil {
		return fmt.Errorf("refresh index: %w", err)
	}
	h.release()
	return nil
}

// acquireOpen returns a handle on the process's on-disk index of dir, with
// a read of dir's readers held until its release.
func acquireOpen(dir string) (*handle, error) {
	rw := readersOf(dir)
	rw.RLock()
	open.Lock()
	defer open.Unlock()
	if ix := open.m[dir]; ix != nil {
		return &handle{ix: ix, kind: "disk", done: rw.RUnlock}, nil
	}
	rw.RUnlock()
	return nil, fmt.Errorf("index %s: not open", dir)
}

// release ends a query's use of the index. Indexes stay open for the next
// query until CloseIndexes; a snapshot replaced meanwhile closes.
func (h *handle) release() {
	if h.done != nil {
		h.done()
	}
}

// openOrReset opens the index in dir, deleting and recreating it when it is
// corrupt or of another format. ErrBusy is returned as is.
func openOrReset(dir string) (*index.Index, error) {
	ix, err := index.Open(dir)
	if err == nil || errors.Is(err, index.ErrBusy) {
		return ix, err
	}
	if rerr := os.RemoveAll(dir); rerr != nil {
		return nil, fmt.Errorf("%w (and removing it: %v)", err, rerr)
	}
	return index.Open(dir)
}

// resetAt closes, deletes and rebuilds the process's index of dir at head,
// once the queries reading it have finished. The caller must not hold a
// read of dir's readers.
func resetAt(ctx context.Context, s *wiki.Space, dir string, head wiki.Rev) error {
	rw := readersOf(dir)
	rw.Lock()
	defer rw.Unlock()
	open.Lock()
	defer open.Unlock()
	if ix := open.m[dir]; ix != nil {
		ix.Close()
		delete(open.m, dir)
	}
	if mem := open.mem[dir]; mem != nil {
		mem.retire()
		delete(open.mem, dir)
	}
	delete(open.busyUntil, dir)
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	ix, err := index.Open(dir)
	if err != nil {
		return err
	}
	if err := update(ctx, s, ix, head); err != nil {
		ix.Close()
		return err
	}
	open.m[dir] = ix
	return nil
}

// CloseIndexes closes the indexes this process keeps open, releasing their
// directory locks. A command calls it before it exits; a server when it
// stops.
func CloseIndexes() error {
	open.Lock()
	defer open.Unlock()
	var errs []error
	for dir, ix := range open.m {
		errs = append(errs, ix.Close())
		delete(open.m, dir)
	}
	for dir, mem := range open.mem {
		errs = append(errs, mem.retire())
		delete(open.mem, dir)
	}
	clear(open.busyUntil)
	errs = append(errs, closeSnapshots())
	return errors.Join(errs...)
}

// applyChunk bounds the Docs of one Apply during a rebuild, so that memory
// stays flat on large spaces; only the last chunk records the commit.
const applyChunk = 2000

// update brings ix from the commit it reflects to head with the tree diff
// between them: changed pages are re-read and re-flattened, deleted ones
// dropped. It works the same for commits made by pt and by a person's git
// commit, since it looks only at trees.
func update(ctx context.Context, s *wiki.Space, ix *index.Index, head wiki.Rev) error {
	from := wiki.Rev(ix.Commit())
	if from == head {
		return nil
	}
	changes, err := s.Diff(ctx, from, head)
	if err != nil {
		return fmt.Errorf("update index from %.12s to %.12s: %w", from, head, err)
	}
	var docs []index.Doc
	var deletes []string
	// One chunk is applied while the next is read and flattened: reading
	// blobs and parsing Markdown cost about a third of a rebuild and need not
	// wait for bluge.
	var pending chan error
	wait := func() error {
		if pending == nil {
			return nil
		}
		err := <-pending
		pending = nil
		return err
	}
	flush := func(commit string) error {
		if err := wait(); err != nil {
			return err
		}
		d, del := docs, deletes
		docs, deletes = nil, nil
		pending = make(chan error, 1)
		go func() { pending <- ix.Apply(ctx, commit, d, del) }()
		return nil
	}
	defer wait() // an early return still lets the chunk in flight finish
	for _, c := range changes {
		if !indexed(c.Path) {
			continue
		}
		if c.To == "" {
			deletes = append(deletes, c.Path)
			continue
		}
		data, err := s.ReadBlob(ctx, c.To)
		if err != nil {
			return fmt.Errorf("update index: %s: %w", c.Path, err)
		}
		pd := pageDocs(c.Path, c.To, data)
		if len(pd) == 0 {
			deletes = append(deletes, c.Path)
			continue
		}
		docs = append(docs, pd...)
		if len(docs) >= applyChunk {
			// An intermediate chunk records the old commit: a crash after it
			// leaves an index that the next update simply redoes.
			if err := flush(string(from)); err != nil {
				return err
			}
		}
	}
	if err := flush(string(head)); err != nil {
		return err
	}
	return wait()
}
