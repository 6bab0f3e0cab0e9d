package retrieve

import (
	"context"
	"sync"
	"time"

	"github.com/ptwiki/pt/retrieve/internal/index"
	"github.com/ptwiki/pt/wiki"
)

// snaps holds, per index directory that another process writes, the newest
// read-only snapshot this process opened of it. A query beside a server (pt
// serve holds the directory for as long as it runs) reads the server's index
// when it is at the head asked for, instead of indexing the space in memory,
// which on a large space takes seconds. A snapshot replaced by a newer one
// is closed when its last query releases it.
var snaps = struct {
	sync.Mutex
	m map[string]*shared
}{m: map[string]*shared{}}

// snapshotAt returns a handle on a read-only snapshot of dir at head, or nil
// when none is (the writer has not caught up, or dir cannot be read); then
// units is the size of the newest snapshot, behind head (0 if unreadable).
func snapshotAt(dir string, head wiki.Rev) (h *handle, units int) {
	snaps.Lock()
	defer snaps.Unlock()
	cur := snaps.m[dir]
	if cur == nil || cur.ix.Commit() != string(head) {
		ix, err := index.OpenSnapshot(dir)
		if err != nil {
			return nil, 0
		}
		if ix.Commit() != string(head) {
			units, _ = ix.Count()
			ix.Close()
			return nil, units
		}
		if cur != nil {
			cur.retire()
		}
		cur = &shared{ix: ix}
		snaps.m[dir] = cur
	}
	return cur.take(&snaps.Mutex, "snapshot"), 0
}

// A holder that refreshes its index (pt serve, every --index-every) reaches
// a new head within moments, while indexing the space in memory costs about
// buildPerUnit per unit: a query that finds the holder's snapshot behind
// waits for it up to half that cost, and never more than maxSnapshotWait.
// A process that already keeps an index in memory updates that instead.
var (
	buildPerUnit    = 120 * time.Microsecond // measured: 5.1 s for 43,000 units
	maxSnapshotWait = 1500 * time.Millisecond
)

// awaitSnapshot polls for a snapshot of dir at head for up to the wait a
// space of units is worth; nil when none comes.
func awaitSnapshot(ctx context.Context, dir string, head wiki.Rev, units int) *handle {
	wait := min(maxSnapshotWait, time.Duration(units)*buildPerUnit/2)
	deadline := time.Now().Add(wait)
	for time.Now().Before(deadline) {
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(50 * time.Millisecond):
		}
		if h, _ := snapshotAt(dir, head); h != nil {
			return h
		}
	}
	return nil
}

// closeSnapshots closes every snapshot no query is using and marks the rest
// to close when released.
func closeSnapshots() error {
	snaps.Lock()
	defer snaps.Unlock()
	var first error
	for dir, sn := range snaps.m {
		if err := sn.retire(); err != nil && first == nil {
			first = err
		}
		delete(snaps.m, dir)
	}
	return first
}
