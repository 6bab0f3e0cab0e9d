package wiki

// SetAfterCommit registers fn to run after every batch this Space commits
// (not after unchanged batches or failures), once the write lock is
// released, on the committing goroutine. It is how a server keeps a remote
// in step: pt serve and pt cron call a Syncer's Trigger from it, so each
// batch is pushed soon after it lands. fn must be quick; nil removes the
// hook.
func (s *Space) SetAfterCommit(fn func(*Result)) {
	if fn == nil {
		s.afterCommit.Store(nil)
		return
	}
	s.afterCommit.Store(&fn)
}

// afterCommitted runs the hook, if any.
func (s *Space) afterCommitted(res *Result) {
	if fn := s.afterCommit.Load(); fn != nil {
		(*fn)(res)
	}
}
