package retrieve

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ptwiki/pt/retrieve/internal/index"
)

// IndexStatus describes a space's on-disk index: the JSON of
// `pt index status --json`.
type IndexStatus struct {
	Dir     string `json:"dir"`
	Exists  bool   `json:"exists"`
	Commit  string `json:"commit,omitempty"`     // the commit the index reflects
	Head    string `json:"head,omitempty"`       // the space's head
	Current bool   `json:"current"`              // Commit == Head: no update pending
	Docs    int    `json:"docs"`                 // pages, sections and spokes indexed
	Bytes   int64  `json:"bytes"`                // size on disk
	Busy    bool   `json:"busy,omitempty"`       // another process holds the index
	Holder  int    `json:"holder_pid,omitempty"` // the process id recorded by the holder of a busy index
	Error   string `json:"error,omitempty"`      // why the index cannot be read (it is rebuilt on the next query)
}

// Status reports on the space's index without changing it. A corrupt index
// is reported, not repaired: the next query or `pt index rebuild` repairs it.
func (e *Engine) Status(ctx context.Context) (IndexStatus, error) {
	head, err := e.space.Head(ctx)
	if err != nil {
		return IndexStatus{}, err
	}
	dir := e.dir
	st := IndexStatus{Dir: dir, Head: string(head)}
	if _, err := os.Stat(dir); err != nil {
		return st, nil
	}
	st.Exists = true
	st.Bytes = dirSize(dir)
	e.mu.Lock()
	defer e.mu.Unlock()
	ix := e.disk
	if ix == nil {
		ix, err = index.Open(dir)
		switch {
		case errors.Is(err, index.ErrBusy):
			// Another process (a server) holds it: report what its
			// latest snapshot holds.
			st.Busy, st.Holder = true, index.Holder(dir)
			if ix, err = index.OpenSnapshot(dir); err != nil {
				return st, nil
			}
		case err != nil:
			st.Error = err.Error()
			return st, nil
		}
		defer ix.Close()
	}
	st.Commit = ix.Commit()
	if st.Docs, err = ix.Count(); err != nil {
		st.Error = err.Error()
	}
	// Current only when the index is readable and at head: a damaged
	// one is rebuilt by the next query, never served.
	st.Current = st.Commit == st.Head && st.Error == ""
	return st, nil
}

// Rebuild deletes the space's index and builds it again from head. It fails
// with an error wrapping index.ErrBusy (see ErrIndexBusy) when another process
// holds the index.
func (e *Engine) Rebuild(ctx context.Context) error {
	head, err := e.space.Head(ctx)
	if err != nil {
		return err
	}
	if err := e.probeFree(); err != nil {
		return fmt.Errorf("rebuild index: %w", err)
	}
	if err := e.resetAt(ctx, head); err != nil {
		return fmt.Errorf("rebuild index: %w", err)
	}
	return nil
}

// probeFree closes the Engine's on-disk index, once the queries reading it
// have finished, and reports ErrIndexBusy when another process holds the
// index: nothing another process is using may be deleted.
func (e *Engine) probeFree() error {
	dir := e.dir
	e.readers.Lock()
	defer e.readers.Unlock()
	e.mu.Lock()
	if e.disk != nil {
		e.disk.Close()
		e.disk = nil
	}
	e.mu.Unlock()
	if held, known := index.Held(dir); known {
		// Not opened: a damaged index can fail fatally in bluge, and a
		// rebuild must work on exactly that one.
		if held {
			return ErrIndexBusy
		}
		return nil
	}
	ix, err := index.Open(dir)
	switch {
	case errors.Is(err, index.ErrBusy):
		return ErrIndexBusy
	case err == nil:
		ix.Close()
	}
	return nil
}

// ErrIndexBusy means another process holds the space's index; queries are
// still answered (from its snapshot, or from memory), but it cannot be
// rebuilt in place now.
var ErrIndexBusy = index.ErrBusy

func dirSize(dir string) int64 {
	var n int64
	_ = filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}
