package retrieve

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

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
var open = struct {
	sync.Mutex
	m map[string]*index.Index
}{m: map[string]*index.Index{}}

// handle is an index ready to search at a commit.
type handle struct {
	ix   *index.Index
	kind string // "disk" or "memory"
}

// acquire returns the space's index brought up to head. The on-disk index is
// opened once per process and kept; when another process holds it (bluge
// allows one writer) the query is answered from an index built in memory for
// this call, and when it is corrupt it is deleted and rebuilt. The index is
// a cache: no failure of it is fatal while git can be read.
func acquire(ctx context.Context, s *wiki.Space, head wiki.Rev) (*handle, error) {
	dir := IndexDir(s)
	open.Lock()
	ix := open.m[dir]
	var err error
	if ix == nil {
		ix, err = openOrReset(dir)
		if err == nil {
			open.m[dir] = ix
		}
	}
	open.Unlock()
	if err != nil {
		// Busy elsewhere, or the disk refused: answer from memory.
		mem, merr := index.OpenMemory()
		if merr != nil {
			return nil, merr
		}
		if err := update(ctx, s, mem, head); err != nil {
			mem.Close()
			return nil, err
		}
		return &handle{ix: mem, kind: "memory"}, nil
	}
	if err := update(ctx, s, ix, head); err != nil {
		if !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
			// A failed incremental update (the recorded commit is gone after
			// a history rewrite, say) is repaired by a full rebuild.
			if rerr := resetAt(ctx, s, dir, head); rerr == nil {
				return acquireOpen(dir)
			}
		}
		return nil, err
	}
	return &handle{ix: ix, kind: "disk"}, nil
}

func acquireOpen(dir string) (*handle, error) {
	open.Lock()
	defer open.Unlock()
	if ix := open.m[dir]; ix != nil {
		return &handle{ix: ix, kind: "disk"}, nil
	}
	return nil, fmt.Errorf("index %s: not open", dir)
}

// release closes a per-call memory index; disk indexes stay open.
func (h *handle) release() {
	if h.kind == "memory" {
		h.ix.Close()
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

// resetAt closes, deletes and rebuilds the process's index of dir at head.
func resetAt(ctx context.Context, s *wiki.Space, dir string, head wiki.Rev) error {
	open.Lock()
	defer open.Unlock()
	if ix := open.m[dir]; ix != nil {
		ix.Close()
		delete(open.m, dir)
	}
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
	flush := func(commit string) error {
		err := ix.Apply(ctx, commit, docs, deletes)
		docs, deletes = docs[:0], deletes[:0]
		return err
	}
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
	return flush(string(head))
}
