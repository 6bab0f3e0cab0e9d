package wiki

import "sync"

// afterCommit holds the hook of each Space that set one. A package-level
// map keeps the Space struct as it is; SetAfterCommit(nil) removes the
// entry.
var afterCommit sync.Map // *Space → func(*Result)

// SetAfterCommit registers fn to run after every batch this Space commits
// (not after unchanged batches or failures), once the write lock is
// released, on the committing goroutine. It is how a server keeps a remote
// in step: pt serve and pt cron call a Syncer's Trigger from it, so each
// batch is pushed soon after it lands. fn must be quick; nil removes the
// hook.
func (s *Space) SetAfterCommit(fn func(*Result)) {
	if fn == nil {
		afterCommit.Delete(s)
		return
	}
	afterCommit.Store(s, fn)
}

// afterCommitted runs the hook, if any.
func (s *Space) afterCommitted(res *Result) {
	if fn, ok := afterCommit.Load(s); ok {
		fn.(func(*Result))(res)
	}
}
