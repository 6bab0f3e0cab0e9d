package retrieve

import (
	"sync"

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
	m map[string]*snapshot
}{m: map[string]*snapshot{}}

type snapshot struct {
	ix   *index.Index
	refs int  // queries using it, guarded by snaps
	old  bool // replaced: close at the last release
}

// snapshotAt returns a handle on a read-only snapshot of dir at head, or nil
// when none is (the writer has not caught up, or dir cannot be read).
func snapshotAt(dir string, head wiki.Rev) *handle {
	snaps.Lock()
	defer snaps.Unlock()
	cur := snaps.m[dir]
	if cur == nil || cur.ix.Commit() != string(head) {
		ix, err := index.OpenSnapshot(dir)
		if err != nil {
			return nil
		}
		if ix.Commit() != string(head) {
			ix.Close()
			return nil
		}
		if cur != nil {
			cur.old = true
			if cur.refs == 0 {
				cur.ix.Close()
			}
		}
		cur = &snapshot{ix: ix}
		snaps.m[dir] = cur
	}
	cur.refs++
	return &handle{ix: cur.ix, kind: "snapshot", done: func() {
		snaps.Lock()
		defer snaps.Unlock()
		cur.refs--
		if cur.old && cur.refs == 0 {
			cur.ix.Close()
		}
	}}
}

// closeSnapshots closes every snapshot no query is using and marks the rest
// to close when released.
func closeSnapshots() error {
	snaps.Lock()
	defer snaps.Unlock()
	var first error
	for dir, sn := range snaps.m {
		sn.old = true
		if sn.refs == 0 {
			if err := sn.ix.Close(); err != nil && first == nil {
				first = err
			}
		}
		delete(snaps.m, dir)
	}
	return first
}
