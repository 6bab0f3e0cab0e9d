//go:build !windows

package index

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// isLockHeld reports whether err is bluge failing to take its directory lock
// because another open file description holds it.
func isLockHeld(err error) bool {
	return errors.Is(err, syscall.EWOULDBLOCK) || errors.Is(err, syscall.EAGAIN)
}

// lockHeld reports whether another open file description holds bluge's lock
// on dir, by taking and at once releasing the same flock on its own. bluge
// starts its analysis goroutines before it tries the lock and leaves them
// running when the lock is held, so asking bluge leaks four goroutines per
// refused open; the probe refuses without them. A holder that takes the lock
// between the probe and bluge's own attempt is still caught by isLockHeld.
func lockHeld(dir string) bool {
	f, err := os.Open(filepath.Join(dir, pidName))
	if err != nil {
		return false // no lock file: nobody has opened the index yet
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return isLockHeld(err)
	}
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return false
}

// probeable says whether lockHeld can probe the lock without bluge.
const probeable = true

// withWriterLock runs f holding bluge's lock on dir, so that no writer can
// change the directory meanwhile, or returns ErrBusy when another process
// holds it. It takes the lock the way bluge does, creating the lock file
// (bluge removes it on every clean close), and makes sure the file it
// locked is still the one at the path: bluge releases the lock before it
// removes the file, and a lock on a file about to go excludes nobody.
func withWriterLock(dir string, f func() error) error {
	path := filepath.Join(dir, pidName)
	for range 5 {
		lf, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
		if err != nil {
			return err
		}
		if err := syscall.Flock(int(lf.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			lf.Close()
			if isLockHeld(err) {
				return fmt.Errorf("%w: another process holds %s", ErrBusy, pidName)
			}
			return err
		}
		held, herr := lf.Stat()
		now, nerr := os.Stat(path)
		if herr == nil && nerr == nil && os.SameFile(held, now) {
			err := f()
			lf.Close() // releases the flock
			return err
		}
		lf.Close() // the file went while we locked it: take the new one
	}
	return fmt.Errorf("%w: %s keeps changing", ErrBusy, pidName)
}
