package gitstore

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Lock takes the pt write lock: an in-process semaphore, so goroutines of one
// process take turns, and an flock on <commondir>/pt/write.lock, so pt
// processes do, the kernel releasing it when a holder dies. The wiki layer
// holds it across "read head, build batch, commit" so that its batches rarely
// lose the compare-and-swap; correctness never depends on it (Commit's CAS
// does that). Commit called while the lock is held does not take it again.
// Waiting honours ctx. unlock is idempotent.
func (s *Store) Lock(ctx context.Context) (unlock func(), err error) {
	select {
	case s.writeSem <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if err := s.holdFlock(ctx); err != nil {
		<-s.writeSem
		return nil, err
	}
	s.sectionHeld.Store(true)
	var once sync.Once
	return func() {
		once.Do(func() {
			s.sectionHeld.Store(false)
			s.releaseFlock()
			<-s.writeSem
		})
	}, nil
}

// lockForCommit makes sure the flock is held for the duration of one Commit:
// joining the section of a goroutine that holds Lock (typically the caller
// itself), or taking Lock when nobody does.
func (s *Store) lockForCommit(ctx context.Context) (func(), error) {
	if s.sectionHeld.Load() && s.joinFlock() {
		return s.releaseFlock, nil
	}
	return s.Lock(ctx)
}

// holdFlock takes (or joins) the process's hold on the flock.
func (s *Store) holdFlock(ctx context.Context) error {
	s.flockMu.Lock()
	defer s.flockMu.Unlock()
	if s.flockCount > 0 {
		s.flockCount++
		return nil
	}
	f, err := flockWait(ctx, filepath.Join(s.commonDir, "pt", "write.lock"), "write lock", 20*time.Millisecond)
	if err != nil {
		return err
	}
	s.flockFile = f
	s.flockCount = 1
	return nil
}

// joinFlock adds a hold on the flock if the process already has it.
func (s *Store) joinFlock() bool {
	s.flockMu.Lock()
	defer s.flockMu.Unlock()
	if s.flockCount == 0 {
		return false
	}
	s.flockCount++
	return true
}

func (s *Store) releaseFlock() {
	s.flockMu.Lock()
	defer s.flockMu.Unlock()
	s.flockCount--
	if s.flockCount == 0 {
		// Closing the descriptor drops the flock.
		s.flockFile.Close()
		s.flockFile = nil
	}
}

// flockWait opens (creating it) the lock file p and takes an exclusive flock
// on it, retrying with a backoff up to maxDelay until ctx is done. The lock
// is held until the returned file is closed; what names the lock in errors.
// Each call opens a descriptor of its own: flock excludes open file
// descriptions, so two callers of one process exclude each other too.
func flockWait(ctx context.Context, p, what string, maxDelay time.Duration) (*os.File, error) {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return nil, fmt.Errorf("gitstore: %s: %w", what, err)
	}
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("gitstore: %s: %w", what, err)
	}
	delay := time.Millisecond
	for {
		held, err := tryLockFile(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("gitstore: %s %s: %w", what, p, err)
		}
		if held {
			return f, nil
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, fmt.Errorf("gitstore: waiting for %s %s: %w", what, p, ctx.Err())
		case <-time.After(delay):
		}
		delay = min(2*delay, maxDelay)
	}
}
