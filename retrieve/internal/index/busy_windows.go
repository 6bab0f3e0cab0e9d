//go:build windows

package index

import (
	"errors"
	"syscall"
)

// errorLockViolation is ERROR_LOCK_VIOLATION, what LockFileEx returns when
// LOCKFILE_FAIL_IMMEDIATELY finds the range locked.
const errorLockViolation = syscall.Errno(33)

// isLockHeld reports whether err is bluge failing to take its directory lock
// because another handle holds it.
func isLockHeld(err error) bool {
	return errors.Is(err, errorLockViolation)
}

// lockHeld always reports false on Windows, where bluge's own attempt is the
// only check: a refused open there leaks its analysis goroutines (see
// busy_unix.go), which retrieve bounds by leaving a busy directory alone for
// a while.
func lockHeld(dir string) bool { return false }

// probeable says whether lockHeld can probe the lock without bluge.
const probeable = false

// withWriterLock is never called on Windows (probeable is false): a writer
// there cannot be excluded without asking bluge.
func withWriterLock(dir string, f func() error) error { return f() }
