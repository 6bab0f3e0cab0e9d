//go:build !windows

package index

import (
	"errors"
	"syscall"
)

// isLockHeld reports whether err is bluge failing to take its directory lock
// because another open file description holds it.
func isLockHeld(err error) bool {
	return errors.Is(err, syscall.EWOULDBLOCK) || errors.Is(err, syscall.EAGAIN)
}
