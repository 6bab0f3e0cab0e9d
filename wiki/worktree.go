package wiki

import (
	"fmt"

	"github.com/ptwiki/pt/wiki/internal/gitstore"
)

// ErrWorktreeIncomplete is wrapped by the error of a batch that is on the
// branch while its files are not all in the work tree yet (a full disk
// after the branch moved), and by Open when it cannot finish such a batch.
// pt keeps git from committing until the next pt command finishes it: a
// commit made meanwhile would record the missing files as deleted.
var ErrWorktreeIncomplete = gitstore.ErrWorktreeIncomplete

// WorktreeError is the error of a batch that landed as Commit but whose
// work tree is incomplete. The batch is not undone: the next pt command of
// any kind writes the missing files first.
type WorktreeError struct {
	Op     string // "ingest batch b-..."
	Commit string
	Err    error // wraps ErrWorktreeIncomplete
}

func (e *WorktreeError) Error() string {
	return fmt.Sprintf("%s landed as commit %s, but %v; git commits wait until the next pt command writes the missing files",
		e.Op, short12(e.Commit), e.Err)
}

func (e *WorktreeError) Unwrap() error { return e.Err }

func short12(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}
