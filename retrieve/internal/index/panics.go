package index

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
)

// bluge panics on some corrupt segment bytes (a slice index read from the
// file) instead of returning an error, and a segment truncated under its
// memory map faults (SIGBUS) on the next read. Either would take down the
// process: a query run, or a server. The index is a cache, so both are
// reported as ErrCorrupt, which callers answer by rebuilding it.

// guarded runs an open of an index with a panic or a memory fault in it
// reported as ErrCorrupt.
func guarded(open func() (*Index, error)) (ix *Index, err error) {
	defer guardFaults()()
	defer recoverCorrupt(&err)
	return open()
}

// guardFaults makes a memory fault in the calling goroutine a panic that
// recoverCorrupt can turn into an error; the returned function restores
// the goroutine's setting. Use it as
//
//	defer guardFaults()()
//	defer recoverCorrupt(&err)
func guardFaults() func() {
	old := debug.SetPanicOnFault(true)
	return func() { debug.SetPanicOnFault(old) }
}

// recoverCorrupt turns a panic into an error wrapping ErrCorrupt.
func recoverCorrupt(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("%w: bluge: %v", ErrCorrupt, r)
	}
}

// readErr wraps an error of reading the index for op, as ErrCorrupt unless
// it is the caller's context's or a busy index: bluge's read errors (a bad
// snappy block, a vellum or roaring decode) mean damaged files, which
// callers answer by rebuilding.
func readErr(op string, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ErrCorrupt) || errors.Is(err, ErrBusy) {
		return fmt.Errorf("%s: %w", op, err)
	}
	return fmt.Errorf("%s: %w: %w", op, ErrCorrupt, err)
}
