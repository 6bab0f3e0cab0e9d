package gitstore

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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
	return s.setRefThen(name, old, h, force, nil)
}

// setRefThen is setRef, calling then right after the ref file is renamed
// into place, before the directory is synced: landBranch publishes the
// index there, so that a git command sees the moved branch with the old
// index for as short a time as two renames allow.
func (s *Store) setRefThen(name string, old, h Hash, force bool, then func()) error {
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
	if err := s.fsync(lock); err != nil {
		return fmt.Errorf("gitstore: update %s: %w", name, err)
	}
	if err := lock.Close(); err != nil {
		return fmt.Errorf("gitstore: update %s: %w", name, err)
	}
	if err := replaceFile(lockPath, refPath); err != nil {
		return fmt.Errorf("gitstore: update %s: %w", name, err)
	}
	done = true
	if then != nil {
		then()
	}
	return s.fsyncDir(filepath.Dir(refPath))
}

// LockSync serializes sync runs on one repository, across goroutines and
// processes (an flock of <commondir>/pt/sync.lock): two syncs of one clone
// at once would fetch twice and race to rebase the same batches. It is a
// different lock from the write lock, which a sync holds only while it
// moves the branch, so batches keep landing during network transfers.
func (s *Store) LockSync(ctx context.Context) (unlock func(), err error) {
	f, err := flockWait(ctx, filepath.Join(s.commonDir, "pt", "sync.lock"), "sync lock", 50*time.Millisecond)
	if err != nil {
		return nil, err
	}
	return func() { f.Close() }, nil
}
