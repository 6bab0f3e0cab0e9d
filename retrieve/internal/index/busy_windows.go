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
