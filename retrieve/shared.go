package retrieve

import (
	"sync"

	"github.com/ptwiki/pt/retrieve/internal/index"
)

// shared is an index that a newer one can replace while queries still read
// it (a snapshot of another process's index, or the index in memory that
// stood in for it): it closes when the last of them releases it. Its fields
// are guarded by the lock of the map that holds it.
type shared struct {
	ix   *index.Index
	refs int  // queries reading it
	old  bool // replaced: close at the last release
}

// take counts a query in and returns its handle; the handle's release,
// which takes mu, counts it out.
func (sh *shared) take(mu sync.Locker, kind string) *handle {
	sh.refs++
	return &handle{ix: sh.ix, kind: kind, done: func() {
		mu.Lock()
		defer mu.Unlock()
		sh.refs--
		if sh.old && sh.refs == 0 {
			sh.ix.Close()
		}
	}}
}

// retire marks sh replaced and closes it at once if no query reads it.
func (sh *shared) retire() error {
	sh.old = true
	if sh.refs == 0 {
		return sh.ix.Close()
	}
	return nil
}
