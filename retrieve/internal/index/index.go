package index

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/blugelabs/bluge"
)

// ErrBusy means another writer, in this process or another, holds the index
// directory. Bluge allows one writer per directory and pt never waits for it:
// the caller decides whether to retry, fall back or tell the user.
var ErrBusy = errors.New("index busy: another writer holds it")

// ErrCorrupt means the directory is not a usable index of this format. The
// index is only a cache, so callers delete the directory and rebuild it.
var ErrCorrupt = errors.New("index corrupt")

// ErrClosed is returned by methods called after Close.
var ErrClosed = errors.New("index closed")

// Index is a full-text index over the Docs of one knowledge base, keyed by the
// git commit it reflects. It is safe for concurrent use: searches read a
// consistent snapshot while Apply writes, and applies are serialized.
type Index struct {
	dir string // absolute path when on disk, "" in memory

	// mu guards w and closed: Search, Apply and Count hold it shared for the
	// duration of their use of w so that Close, which holds it exclusively,
	// never pulls the writer from under them.
	mu     sync.RWMutex
	w      *bluge.Writer
	ro     *bluge.Reader // instead of w, for an index opened with OpenSnapshot
	closed bool

	// applyMu orders writes: one Apply at a time, so commits are recorded
	// in order, and no Add beside it, so its totals count every document.
	applyMu sync.RWMutex
	pending pendingTotals // the totals of Adds not yet recorded by an Apply

	commitMu sync.Mutex
	commit   string
	hasMeta  bool // the metadata document exists: Add is refused

	snaps snapCache // statistics and path documents of the current snapshot
	hits  hitCache  // the hits of recent searches of the current content

	// exactPostings is the total of postings below which a search is the
	// exact disjunction (termsQuery); tests lower it.
	exactPostings uint64
}

// Open opens the on-disk index in dir, creating it if missing. It returns an
// error wrapping ErrBusy at once (never blocking) when another writer holds
// dir, and one wrapping ErrCorrupt when dir is not an index of this format or
// bluge cannot load it; deleting dir and opening again then yields an empty
// index.
func Open(dir string) (*Index, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("open index %s: %w", dir, err)
	}
	abs, err := filepath.Abs(dir)
	if err == nil {
		abs, err = filepath.EvalSymlinks(abs)
	}
	if err != nil {
		return nil, fmt.Errorf("open index %s: %w", dir, err)
	}
	ix, err := guarded(func() (*Index, error) { return openDir(abs) })
	if err != nil {
		return nil, fmt.Errorf("open index %s: %w", dir, err)
	}
	return ix, nil
}

func openDir(dir string) (*Index, error) {
	fresh, err := checkMarker(dir)
	if err != nil {
		return nil, err
	}
	if probeable && !fresh {
		// Also the probe for another holder (ErrBusy).
		if err := withWriterLock(dir, func() error { return verifySegments(dir) }); err != nil {
			return nil, err
		}
	} else if lockHeld(dir) {
		return nil, fmt.Errorf("%w: another process holds %s", ErrBusy, pidName)
	}
	w, err := bluge.OpenWriter(diskConfig(dir))
	if err != nil {
		if isLockHeld(err) {
			return nil, fmt.Errorf("%w: %v", ErrBusy, err)
		}
		return nil, fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	if fresh {
		if err := writeMarker(dir); err != nil {
			w.Close()
			return nil, err
		}
	}
	ix := &Index{dir: dir, w: w, exactPostings: exactPostings}
	if err := ix.loadCommit(); err != nil {
		w.Close()
		return nil, fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	// Documents without a recorded commit are what a first build through
	// Add leaves when it is killed before its Apply: their totals are lost.
	if empty, err := ix.Empty(); err != nil || !empty && !ix.applied() {
		w.Close()
		return nil, fmt.Errorf("%w: an unfinished first build (%v)", ErrCorrupt, err)
	}
	return ix, nil
}

// OpenMemory returns an empty index held in memory, for tests and for one-shot
// runs that have nowhere to keep a cache.
func OpenMemory() (*Index, error) {
	w, err := bluge.OpenWriter(config(bluge.InMemoryOnlyConfig()))
	if err != nil {
		return nil, fmt.Errorf("open memory index: %w", err)
	}
	return &Index{w: w, exactPostings: exactPostings}, nil
}

// config adjusts bluge's defaults for pt: BM25 with a correct idf.
func config(c bluge.Config) bluge.Config {
	c.DefaultSimilarity = bm25Similarity
	return c
}

func (ix *Index) loadCommit() error {
	r, release, err := ix.reader()
	if err != nil {
		return err
	}
	defer release()
	m, err := readMeta(context.Background(), r)
	if err != nil {
		return err
	}
	ix.commitMu.Lock()
	defer ix.commitMu.Unlock()
	ix.commit, ix.hasMeta = m.commit, m.exists
	return nil
}

// Commit returns the git commit the index reflects, "" for an index that has
// never been applied to. The caller diffs it against HEAD to bring the index
// up to date.
func (ix *Index) Commit() string {
	ix.commitMu.Lock()
	defer ix.commitMu.Unlock()
	return ix.commit
}

func (ix *Index) setCommit(c string) {
	ix.commitMu.Lock()
	defer ix.commitMu.Unlock()
	ix.commit, ix.hasMeta = c, true
}

// Empty reports whether the index holds no document and has never
// recorded a commit, so that Add may fill it.
func (ix *Index) Empty() (bool, error) {
	if ix.applied() {
		return false, nil
	}
	n, err := ix.Count()
	return n == 0, err
}

func (ix *Index) applied() bool {
	ix.commitMu.Lock()
	defer ix.commitMu.Unlock()
	return ix.hasMeta
}

// reader returns a snapshot of the index and a function that releases it and
// the shared hold on ix; callers must call it.
func (ix *Index) reader() (*bluge.Reader, func(), error) {
	ix.mu.RLock()
	if ix.closed {
		ix.mu.RUnlock()
		return nil, nil, ErrClosed
	}
	if ix.ro != nil {
		// A snapshot is one reader for the life of the index.
		return ix.ro, ix.mu.RUnlock, nil
	}
	r, err := ix.w.Reader()
	if err != nil {
		ix.mu.RUnlock()
		return nil, nil, err
	}
	return r, func() {
		r.Close()
		ix.mu.RUnlock()
	}, nil
}

// Count returns the number of Docs in the index, for status reports and for
// checking a rebuild.
func (ix *Index) Count() (_ int, err error) {
	defer guardFaults()()
	defer recoverCorrupt(&err)
	r, release, err := ix.reader()
	if err != nil {
		return 0, readErr("count index", err)
	}
	defer release()
	n, err := r.Count()
	if err != nil {
		return 0, readErr("count index", err)
	}
	m, err := readMeta(context.Background(), r)
	if err != nil {
		return 0, readErr("count index", err)
	}
	if m.exists {
		n--
	}
	return int(n), nil
}

// Close flushes nothing (every Apply is already durable) and releases the
// directory lock. It waits for searches in flight; later calls return
// ErrClosed. Closing twice is not an error.
func (ix *Index) Close() (err error) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.closed {
		return nil
	}
	ix.closed = true
	ix.hits.closing()
	// A writer left broken by a damaged segment may panic while closing;
	// the directory is released all the same, to be deleted and rebuilt.
	defer recoverCorrupt(&err)
	if ix.ro != nil {
		return ix.ro.Close()
	}
	err = ix.w.Close()
	if err != nil {
		return fmt.Errorf("close index %s: %w", ix.dir, err)
	}
	return nil
}
