package gitstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	gitobject "github.com/go-git/go-git/v5/plumbing/object"
)

// MergeBase returns the best common ancestor of a and b (zero when the
// histories share nothing). With several candidates (criss-cross merges)
// the newest is returned, as `git merge-base` does.
func (s *Store) MergeBase(ctx context.Context, a, b Hash) (Hash, error) {
	if err := ctx.Err(); err != nil {
		return Hash{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ca, err := gitobject.GetCommit(s.st, plumbing.Hash(a))
	if err != nil {
		return Hash{}, fmt.Errorf("gitstore: merge base: %s: %w", short(a), err)
	}
	cb, err := gitobject.GetCommit(s.st, plumbing.Hash(b))
	if err != nil {
		return Hash{}, fmt.Errorf("gitstore: merge base: %s: %w", short(b), err)
	}
	bases, err := ca.MergeBase(cb)
	if err != nil {
		return Hash{}, fmt.Errorf("gitstore: merge base %s %s: %w", short(a), short(b), err)
	}
	if len(bases) == 0 {
		return Hash{}, nil
	}
	best := bases[0]
	for _, c := range bases[1:] {
		if c.Committer.When.After(best.Committer.When) {
			best = c
		}
	}
	return Hash(best.Hash), nil
}

// IsAncestor reports whether a is b or one of b's ancestors.
func (s *Store) IsAncestor(ctx context.Context, a, b Hash) (bool, error) {
	if a == b {
		return true, nil
	}
	if a.IsZero() {
		return true, nil
	}
	if b.IsZero() {
		return false, nil
	}
	base, err := s.MergeBase(ctx, a, b)
	return base == a, err
}

// WriteCommit writes the objects of one commit with the given parent, as
// Commit does, but moves no ref: a sync builds a chain of rebased batches
// this way and then moves the branch once, with MoveBranch. It returns
// ErrNoChange (and the parent) when the changes leave the tree as it is.
func (s *Store) WriteCommit(ctx context.Context, req CommitRequest) (Hash, error) {
	if err := ctx.Err(); err != nil {
		return Hash{}, err
	}
	trie, err := req.prepare()
	if err != nil {
		return Hash{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	h, _, err := s.writeCommitLocked(req, trie)
	if errors.Is(err, ErrNoChange) {
		return req.Parent, ErrNoChange
	}
	return h, err
}

// MoveBranch moves the branch from old to new (a fetched or rebased commit
// whose objects are on disk) with the same compare-and-swap and lock-file
// protocol as Commit, returning ErrStale when the branch is not at old, and
// then brings the work tree and index in step for the files that differ
// between the two commits, journaled as for Commit: a user's uncommitted
// edit is never overwritten (CommitResult.SkippedWorktree).
func (s *Store) MoveBranch(ctx context.Context, old, new Hash, msg string, who Signature) (CommitResult, error) {
	res := CommitResult{Hash: old}
	if err := ctx.Err(); err != nil {
		return res, err
	}
	if who.When.IsZero() {
		who.When = time.Now()
	}
	done, err := s.beginBranchWrite(ctx)
	if err != nil {
		return res, err
	}
	defer done()
	res.WorktreeErr = s.finishPendingLocked()

	if _, err := s.readTyped(new, commitObject); err != nil {
		return res, fmt.Errorf("gitstore: move %s: %w", s.branch, err)
	}
	keepWorktree := false
	if s.workDir != "" {
		t, _ := s.headTarget()
		keepWorktree = t == s.refName()
	}
	var pending []wtEntry
	if keepWorktree {
		changes, err := s.fileChanges(ctx, old, new)
		if err != nil {
			return res, err
		}
		if pending, err = s.journalWorktree(new, changes); err != nil {
			return res, err
		}
	}
	return s.landBranch(res, old, new, msg, who, keepWorktree, pending)
}

// fileChanges is Diff with the new entry's mode, as the work-tree journal
// needs it. The caller holds s.mu.
func (s *Store) fileChanges(ctx context.Context, from, to Hash) ([]fileChange, error) {
	diff, b, err := s.diffLocked(ctx, from, to)
	if err != nil {
		return nil, err
	}
	out := make([]fileChange, 0, len(diff))
	for _, d := range diff {
		fc := fileChange{path: d.Path, from: d.From, to: d.To}
		if !d.To.IsZero() {
			e, ok, err := s.lookup(b, d.Path)
			if err != nil {
				return nil, err
			}
			if !ok {
				return nil, errors.New("gitstore: diff: " + d.Path + " vanished")
			}
			fc.mode = e.mode
		}
		out = append(out, fc)
	}
	return out, nil
}
