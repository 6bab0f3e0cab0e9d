package retrieve

import (
	"context"
	"time"

	"github.com/ptwiki/pt/retrieve/internal/index"
	"github.com/ptwiki/pt/wiki"
)

// An Engine whose index directory another process writes keeps the newest
// read-only snapshot it opened of it. A query beside a server (pt serve
// holds the directory for as long as it runs) reads the server's index
// when it is at the head asked for, instead of indexing the space in
// memory, which on a large space takes seconds. A snapshot replaced by a
// newer one is closed when its last query releases it.

// snapshotAt returns a handle on a read-only snapshot of the index at head,
// or nil when none is (the writer has not caught up, or the directory
// cannot be read); then units is the size of the newest snapshot, behind
// head (0 if unreadable).
func (e *Engine) snapshotAt(head wiki.Rev) (h *handle, units int) {
	e.snapMu.Lock()
	defer e.snapMu.Unlock()
	cur := e.snap
	if cur == nil || cur.ix.Commit() != string(head) {
		ix, err := index.OpenSnapshot(e.dir)
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
		e.snap = cur
	}
	return cur.take(&e.snapMu, "snapshot"), 0
}

// A holder that refreshes its index (pt serve, every --index-every) reaches
// a new head within moments, while indexing the space in memory costs about
// Engine.buildPerUnit per unit: a query that finds the holder's snapshot behind
// waits for it up to half that cost, and never more than maxSnapshotWait.
// An Engine that already keeps an index in memory updates that instead.
const (
	buildPerUnit    = 120 * time.Microsecond // measured: 5.1 s for 43,000 units; Engine.buildPerUnit
	maxSnapshotWait = 1500 * time.Millisecond
)

// awaitSnapshot polls for a snapshot at head for up to the wait a space of
// units is worth; nil when none comes.
func (e *Engine) awaitSnapshot(ctx context.Context, head wiki.Rev, units int) *handle {
	wait := min(maxSnapshotWait, time.Duration(units)*e.buildPerUnit/2)
	deadline := time.Now().Add(wait)
	for time.Now().Before(deadline) {
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(50 * time.Millisecond):
		}
		if h, _ := e.snapshotAt(head); h != nil {
			return h
		}
	}
	return nil
}

// closeSnapshot closes the snapshot if no query is using it, and marks it
// to close when released otherwise.
func (e *Engine) closeSnapshot() error {
	e.snapMu.Lock()
	defer e.snapMu.Unlock()
	if e.snap == nil {
		return nil
	}
	err := e.snap.retire()
	e.snap = nil
	return err
}
