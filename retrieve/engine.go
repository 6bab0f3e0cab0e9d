package retrieve

import (
	"errors"
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

// busyRetry is how long an Engine leaves a busy index directory alone. A
// refused Open costs a lock probe on Unix, but on Windows bluge leaks
// goroutines on every one; and a server beside another pt process should
// take the index over soon after that process exits.
const busyRetry = 5 * time.Second

// Options configures an Engine. The zero value ranks with DefaultRanking
// and keeps the index in IndexDir of the space.
type Options struct {
	// Ranking holds the ranking and sufficiency parameters; the zero
	// Ranking means DefaultRanking().
	Ranking Ranking
	// IndexDir is where the on-disk index is kept; "" means IndexDir(s).
	IndexDir string
	// Progress, when set, is called as the index catches up with the
	// space: done of total changed files read. nil reports nothing.
	Progress func(done, total int)
}

// Engine answers questions from one space and owns what that takes: the
// space's full-text index on disk (opened on first use and kept), the
// stand-ins that answer while another process holds it (that process's
// snapshot, or an index in memory), and the caches of what queries read
// from git. It is safe for concurrent use. A server holds one for as long
// as it runs; a command opens one and closes it when done.
type Engine struct {
	space     *wiki.Space
	progress  func(done, total int) // Options.Progress
	dir       string
	ranking   Ranking
	busyRetry time.Duration // busyRetry; tests shorten it
	// buildPerUnit is what indexing a unit in memory costs (snapshot.go);
	// tests lengthen it.
	buildPerUnit time.Duration
	gate         func(evidence) // sees the evidence of every answered question (tuning only)

	// readers guards the on-disk index against being closed while
	// queries read it. A query holds a read from the moment it takes the
	// index until it has packed its answer; closing the index (a rebuild,
	// or the repair of an update that failed after history was rewritten)
	// takes the write side, so it waits for the queries in flight, which
	// take milliseconds, instead of failing them. The directory cannot be
	// handed to a new index while the old one is still open: bluge would
	// reuse its file names. A goroutine holds at most one read at a time:
	// a second, asked for while a reset waits, would never be granted. The
	// order is readers first, then mu.
	readers sync.RWMutex

	// mu guards the indexes below. When the directory is busy (another
	// process holds it), that process's snapshot or an index in memory
	// stands in (acquire), and Open is not tried again until busyUntil.
	mu        sync.Mutex
	disk      *index.Index // the on-disk index, once opened
	mem       *shared      // the index in memory standing in for it
	busyUntil time.Time

	// snapMu guards snap, the newest read-only snapshot opened of another
	// process's index (snapshot.go).
	snapMu sync.Mutex
	snap   *shared

	// updateMu serializes updates of the index, so that concurrent
	// queries do not index the same diff twice.
	updateMu sync.Mutex

	cache cache
}

// Open returns an Engine on the space s. It opens nothing yet: the index
// is opened, or built, by the first call that needs it. Close releases it.
func Open(s *wiki.Space, opts Options) *Engine {
	e := &Engine{space: s, dir: opts.IndexDir, ranking: opts.Ranking, busyRetry: busyRetry, buildPerUnit: buildPerUnit, progress: opts.Progress}
	if e.dir == "" {
		e.dir = IndexDir(s)
	}
	if e.ranking == (Ranking{}) {
		e.ranking = DefaultRanking()
	}
	e.cache.init()
	return e
}

// Close closes the indexes the Engine keeps open, releasing the on-disk
// index's directory lock once the queries reading it have finished. A
// later query opens them again.
func (e *Engine) Close() error {
	e.readers.Lock()
	defer e.readers.Unlock()
	e.mu.Lock()
	var errs []error
	if e.disk != nil {
		errs = append(errs, e.disk.Close())
		e.disk = nil
	}
	if e.mem != nil {
		errs = append(errs, e.mem.retire())
		e.mem = nil
	}
	e.busyUntil = time.Time{}
	e.mu.Unlock()
	errs = append(errs, e.closeSnapshot())
	return errors.Join(errs...)
}
