package index

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// How bluge v0.2.2 guards a directory (index/directory_fs.go, index/lock):
//
//   - Opening a Writer takes an exclusive, non-blocking flock(2)
//     (LOCK_EX|LOCK_NB; LockFileEx with LOCKFILE_FAIL_IMMEDIATELY on Windows)
//     on <dir>/bluge.pid and writes the pid into it. A second writer, in
//     another process or in the same one (flock locks belong to open file
//     descriptions, not processes), fails at once with EWOULDBLOCK; it never
//     waits, so ErrBusy comes back in microseconds.
//   - The lock is released by Writer.Close, or by the kernel when the holder
//     dies: a crashed holder leaves bluge.pid behind but not the lock, so there
//     is no stale lock to clear.
//   - Close releases the lock before it removes bluge.pid, so for an instant a
//     newcomer can lock a file that is about to be unlinked, and a third opener
//     could then lock a fresh bluge.pid beside it. In pt one Engine owns a
//     directory in a process, so only separate processes meet the window.
//   - A failed open (busy) leaks bluge's analysis goroutines (they are started
//     before the lock is tried and only stopped by Close). On Unix lockHeld
//     probes the flock first (another open in the same process included,
//     since the lock belongs to bluge's own descriptor), so that a directory
//     already held is refused without asking bluge; only a holder that
//     arrives between the probe and bluge's own attempt costs the goroutines.

// Holder returns the process id bluge recorded when it took dir's writer
// lock, for telling a person which process holds a busy index; 0 when none
// is recorded. The file outlives a crashed holder, so the id is only a hint
// beside ErrBusy.
func Holder(dir string) int {
	b, err := os.ReadFile(filepath.Join(dir, pidName))
	if err != nil {
		return 0
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 0 {
		return 0
	}
	return pid
}

// Held reports whether another process holds dir's writer lock, and
// whether that could be told without opening the index (known is false
// where the lock cannot be probed, on Windows). Opening a damaged index
// can fail fatally inside bluge (a length read from a corrupt segment that
// no allocation can meet), so whoever only needs to know must not open it.
func Held(dir string) (held, known bool) {
	if !probeable {
		return false, false
	}
	return lockHeld(dir), true
}
