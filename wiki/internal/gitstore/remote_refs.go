package gitstore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// SetRef points a ref other than the branch (a tracking ref, a ref that
// keeps set-aside commits reachable) at h, with git's lock-file protocol.
// When old is non-zero the ref must be at old (ErrStale otherwise); the
// zero old means "whatever it is". The branch itself moves only through
// Commit and MoveBranch.
func (s *Store) SetRef(ctx context.Context, name string, old, h Hash) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if !strings.HasPrefix(name, "refs/") || name == s.refName() || validPath(name) != nil {
		return fmt.Errorf("gitstore: set ref %q: not a ref pt may set", name)
	}
	return s.setRef(name, old, h, old.IsZero())
}

// setRef is updateRef for any ref name; force skips the old-value check.
func (s *Store) setRef(name string, old, h Hash, force bool) error {
	refPath := filepath.Join(s.commonDir, filepath.FromSlash(name))
	lockPath := refPath + ".lock"
	if err := os.MkdirAll(filepath.Dir(refPath), 0o755); err != nil {
		return fmt.Errorf("gitstore: update %s: %w", name, err)
	}
	lock, err := createLockFile(lockPath)
	if err != nil {
		return fmt.Errorf("gitstore: update %s: %w", name, err)
	}
	done := false
	defer func() {
		if !done {
			lock.Close()
			os.Remove(lockPath)
		}
	}()
	if !force {
		cur, err := s.readRef(name)
		if err != nil {
			return err
		}
		if cur != old {
			return fmt.Errorf("gitstore: update %s: at %s, expected %s: %w", name, short(cur), short(old), ErrStale)
		}
	}
	if _, err := lock.WriteString(h.String() + "\n"); err != nil {
		return fmt.Errorf("gitstore: update %s: %w", name, err)
	}
	if err := lock.Sync(); err != nil {
		return fmt.Errorf("gitstore: update %s: %w", name, err)
	}
	if err := lock.Close(); err != nil {
		return fmt.Errorf("gitstore: update %s: %w", name, err)
	}
	if err := os.Rename(lockPath, refPath); err != nil {
		return fmt.Errorf("gitstore: update %s: %w", name, err)
	}
	done = true
	return syncDir(filepath.Dir(refPath))
}

// LockSync serializes sync runs on one repository, across goroutines and
// processes (an flock of <commondir>/pt/sync.lock): two syncs of one clone
// at once would fetch twice and race to rebase the same batches. It is a
// different lock from the write lock, which a sync holds only while it
// moves the branch, so batches keep landing during network transfers.
func (s *Store) LockSync(ctx context.Context) (unlock func(), err error) {
	p := filepath.Join(s.commonDir, "pt", "sync.lock")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return nil, fmt.Errorf("gitstore: sync lock: %w", err)
	}
	// A descriptor of its own per call: flock excludes open file
	// descriptions, so goroutines of one process exclude each other too.
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("gitstore: sync lock: %w", err)
	}
	delay := time.Millisecond
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			break
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			f.Close()
			return nil, fmt.Errorf("gitstore: sync lock %s: %w", p, err)
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, fmt.Errorf("gitstore: waiting for sync lock %s: %w", p, ctx.Err())
		case <-time.After(delay):
		}
		delay = min(2*delay, 50*time.Millisecond)
	}
	return func() { f.Close() }, nil
}
