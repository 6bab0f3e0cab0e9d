package lint

// SetBeforeApply lets a test land a commit between a run's planning and
// its batch; it returns the function that removes the hook.
func SetBeforeApply(fn func()) (restore func()) {
	testHookBeforeApply = fn
	return func() { testHookBeforeApply = nil }
}
