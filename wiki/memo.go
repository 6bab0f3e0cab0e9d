package wiki

import "sync"

// memo is a Space's store of derived values kept in memory, by key.
type memo struct {
	mu     sync.Mutex
	values map[string]any
}

// Memo returns the value kept under key for as long as the Space is open,
// making it with build on first use. Packages above wiki keep caches of
// derived data here (each under a key of its own), so that a long-running
// process reuses them for every batch while the state stays owned by the
// Space that the cache describes. build runs at most once per key.
func (s *Space) Memo(key string, build func() any) any {
	s.memo.mu.Lock()
	defer s.memo.mu.Unlock()
	if v, ok := s.memo.values[key]; ok {
		return v
	}
	if s.memo.values == nil {
		s.memo.values = map[string]any{}
	}
	v := build()
	s.memo.values[key] = v
	return v
}
