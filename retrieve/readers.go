package retrieve

import "sync"

// readers guards each on-disk index this process keeps open against being
// closed while queries read it. A query holds a read from the moment it
// takes the index until it has packed its answer; closing the index (a
// rebuild, or the repair of an update that failed after history was
// rewritten) takes the write side, so it waits for the queries in flight,
// which take milliseconds, instead of failing them. The directory cannot be
// handed to a new index while the old one is still open: bluge would reuse
// its file names. A goroutine holds at most one read at a time: a second,
// asked for while a reset waits, would never be granted.
var readers = struct {
	sync.Mutex
	m map[string]*sync.RWMutex
}{m: map[string]*sync.RWMutex{}}

// readersOf returns dir's readers lock. The order is readers first, then
// open's lock.
func readersOf(dir string) *sync.RWMutex {
	readers.Lock()
	defer readers.Unlock()
	rw := readers.m[dir]
	if rw == nil {
		rw = &sync.RWMutex{}
		readers.m[dir] = rw
	}
	return rw
}
