package retrieve

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/ptwiki/pt/retrieve/internal/index"
	"github.com/ptwiki/pt/wiki"
)

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
func (e *Engine) acquire(ctx context.Context, head wiki.Rev) (*handle, error) {
	e.readers.RLock()
	ix, err := e.diskIndex()
	if err == nil {
		return e.updateDisk(ctx, ix, head)
	}
	e.readers.RUnlock()
	if errors.Is(err, index.ErrBusy) {
		h, units := e.snapshotAt(head)
		if h == nil && units > 0 && !e.standIn() {
			h = e.awaitSnapshot(ctx, head, units)
		}
		if h != nil {
			return h, nil
		}
	}
	return e.fromMemory(ctx, head)
}

// dropMemory retires the in-memory index (found damaged), so that the
// next fromMemory builds a new one.
func (e *Engine) dropMemory() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.mem != nil {
		e.mem.retire()
		e.mem = nil
	}
}

// fromMemory answers from an index of the space built in memory and kept
// by the Engine (busy elsewhere, or the disk refused).
func (e *Engine) fromMemory(ctx context.Context, head wiki.Rev) (*handle, error) {
	e.mu.Lock()
	if e.mem == nil {
		ix, err := index.OpenMemory()
		if err != nil {
			e.mu.Unlock()
			return nil, err
		}
		e.mem = &shared{ix: ix}
	}
	h := e.mem.take(&e.mu, "memory")
	e.mu.Unlock()
	e.updateMu.Lock()
	err := update(ctx, e.space, h.ix, head, e.progress)
	e.updateMu.Unlock()
	if err != nil {
		h.release()
		return nil, err
	}
	return h, nil
}

// standIn reports whether the Engine keeps an index in memory.
func (e *Engine) standIn() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.mem != nil
}

// diskIndex returns the on-disk index, opening it on first use, or an
// error wrapping index.ErrBusy while another process holds it.
func (e *Engine) diskIndex() (*index.Index, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.disk != nil {
		return e.disk, nil
	}
	if time.Now().Before(e.busyUntil) {
		return nil, index.ErrBusy
	}
	ix, err := openOrReset(e.dir)
	switch {
	case err == nil:
		e.disk = ix
		e.busyUntil = time.Time{}
		if e.mem != nil {
			e.mem.retire()
			e.mem = nil
		}
	case errors.Is(err, index.ErrBusy):
		e.busyUntil = time.Now().Add(e.busyRetry)
	}
	return ix, err
}

// updateDisk brings the on-disk index to head, rebuilding it when the
// incremental update fails. It is called with a read of readers held,
// which the returned handle's release ends (an error ends it at once).
func (e *Engine) updateDisk(ctx context.Context, ix *index.Index, head wiki.Rev) (*handle, error) {
	e.updateMu.Lock()
	err := update(ctx, e.space, ix, head, e.progress)
	e.updateMu.Unlock()
	if err == nil {
		return &handle{ix: ix, kind: "disk", done: e.readers.RUnlock}, nil
	}
	e.readers.RUnlock()
	if !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
		// A failed incremental update (the recorded commit is gone after
		// a history rewrite, say) is repaired by a full rebuild.
		if rerr := e.resetAt(ctx, head); rerr == nil {
			return e.acquireOpen()
		}
		// The rebuild could not take the directory (another process
		// did, a server, after it was deleted): the index is a cache,
		// so the question is answered from memory.
		return e.fromMemory(ctx, head)
	}
	return nil, err
}

// Refresh brings the space's on-disk index to its head when this process
// holds the index or can take it, and does nothing while another process
// holds it. A server calls it on a timer, so that its index follows commits
// made elsewhere (a person's git commit, pt ingest in a terminal) before the
// next question arrives, and so that a query run beside the server finds a
// snapshot at head to read.
func (e *Engine) Refresh(ctx context.Context) error {
	head, err := e.space.Head(ctx)
	if err != nil || head == "" {
		return err
	}
	e.readers.RLock()
	ix, err := e.diskIndex()
	switch {
	case errors.Is(err, index.ErrBusy):
		e.readers.RUnlock()
		return nil
	case err != nil:
		e.readers.RUnlock()
		return fmt.Errorf("refresh index: %w", err)
	case ix.Commit() == string(head):
		e.readers.RUnlock()
		return nil
	}
	h, err := e.updateDisk(ctx, ix, head)
	if err != nil {
		return fmt.Errorf("refresh index: %w", err)
	}
	h.release()
	return nil
}

// acquireOpen returns a handle on the on-disk index, with a read of
// readers held until its release.
func (e *Engine) acquireOpen() (*handle, error) {
	e.readers.RLock()
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.disk != nil {
		return &handle{ix: e.disk, kind: "disk", done: e.readers.RUnlock}, nil
	}
	e.readers.RUnlock()
	return nil, fmt.Errorf("index %s: not open", e.dir)
}

// release ends a query's use of the index. Indexes stay open for the next
// query until the Engine closes; a snapshot replaced meanwhile closes.
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

// resetAt closes, deletes and rebuilds the index at head, once the
// queries reading it have finished. The caller must not hold a read of
// readers.
func (e *Engine) resetAt(ctx context.Context, head wiki.Rev) error {
	e.readers.Lock()
	defer e.readers.Unlock()
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.disk != nil {
		e.disk.Close()
		e.disk = nil
	}
	if e.mem != nil {
		e.mem.retire()
		e.mem = nil
	}
	e.busyUntil = time.Time{}
	if err := os.RemoveAll(e.dir); err != nil {
		return err
	}
	ix, err := index.Open(e.dir)
	if err != nil {
		return err
	}
	if err := update(ctx, e.space, ix, head, e.progress); err != nil {
		ix.Close()
		return err
	}
	e.disk = ix
	return nil
}

// applyChunk bounds the Docs of one Apply during a rebuild, so that memory
// stays flat on large spaces; only the last chunk records the commit.
const applyChunk = 2000

// update brings ix from the commit it reflects to head with the tree diff
// between them: changed pages are re-read and re-flattened, deleted ones
// dropped. It works the same for commits made by pt and by a person's git
// commit, since it looks only at trees. An index that never recorded a
// commit is filled by build, on every core.
func update(ctx context.Context, s *wiki.Space, ix *index.Index, head wiki.Rev, progress func(done, total int)) error {
	from := wiki.Rev(ix.Commit())
	if from == head {
		return nil
	}
	changes, err := s.Diff(ctx, from, head)
	if err != nil {
		return fmt.Errorf("update index from %.12s to %.12s: %w", from, head, err)
	}
	if empty, err := ix.Empty(); err != nil {
		return fmt.Errorf("update index: %w", err)
	} else if empty {
		return build(ctx, s, ix, head, changes, applyChunk, progress)
	}
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
	defer wait() // an early return still lets the chunk in flight finish
	rest, deletes, err := readChunks(ctx, s, changes, applyChunk, progress, func(d []index.Doc, del []string) error {
		if err := wait(); err != nil {
			return err
		}
		pending = make(chan error, 1)
		// An intermediate chunk records the old commit: a crash after it
		// leaves an index that the next update simply redoes.
		go func() { pending <- ix.Apply(ctx, string(from), d, del) }()
		return nil
	})
	if err == nil {
		err = wait()
	}
	if err == nil {
		err = ix.Apply(ctx, string(head), rest, deletes)
	}
	if progress != nil && err == nil {
		progress(len(changes), len(changes))
	}
	return err
}

// readChunks reads and flattens the changed pages, handing every chunk
// Docs or more (never a page split), with the paths deleted so far, to f;
// it returns the Docs and deleted paths left for the last batch.
func readChunks(ctx context.Context, s *wiki.Space, changes []wiki.FileChange, chunk int, progress func(done, total int), f func([]index.Doc, []string) error) ([]index.Doc, []string, error) {
	var docs []index.Doc
	var deletes []string
	for i, c := range changes {
		if progress != nil {
			progress(i, len(changes))
		}
		if !indexed(c.Path) {
			continue
		}
		if c.To == "" {
			deletes = append(deletes, c.Path)
			continue
		}
		data, err := s.ReadBlob(ctx, c.To)
		if err != nil {
			return nil, nil, fmt.Errorf("update index: %s: %w", c.Path, err)
		}
		pd := pageDocs(c.Path, c.To, data)
		if len(pd) == 0 {
			deletes = append(deletes, c.Path)
			continue
		}
		docs = append(docs, pd...)
		if len(docs) >= chunk {
			if err := f(docs, deletes); err != nil {
				return nil, nil, err
			}
			docs, deletes = nil, nil
		}
	}
	return docs, deletes, nil
}
