package gitstore

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"
)

// ErrNoChange is returned by Commit, with the parent's hash in the result,
// when the changes leave the tree as it was: callers skip empty batches
// instead of writing empty commits.
var ErrNoChange = errors.New("no change")

// Change is one file of a batch: write Data at Path, or delete Path. Deleting
// a path that does not exist is not an error (it is already gone). A
// change whose content is already in the request's Pack names it by Blob
// instead of Data.
type Change struct {
	Path   string
	Data   []byte
	Blob   Hash
	Delete bool
}

// CommitRequest is one batch. Parent is the tip the caller built it on (zero
// for the first commit of an unborn branch); the branch moves only if it is
// still there. A zero Committer means the Author; a zero When means now.
type CommitRequest struct {
	Parent    Hash
	Changes   []Change
	Message   string
	Author    Signature
	Committer Signature
	// AllowEmpty writes a commit whose tree is its parent's (WriteCommit
	// only): a record kept on a ref of its own, such as a rejection.
	AllowEmpty bool
	// Pack, when set, holds the blobs the changes name by Blob; the commit
	// adds its trees and itself to it and finishes it, so that the batch
	// is one pack written as it was staged. The caller discards it after.
	Pack *Pack
}

// CommitResult says what Commit did.
type CommitResult struct {
	// Hash is the new commit, or the parent with ErrNoChange.
	Hash Hash
	// SkippedWorktree lists paths whose work-tree file was left alone because
	// it held an uncommitted edit (or an untracked file) that differs from
	// the parent's content; the branch has the new content, the user's file
	// is untouched and shows as modified in `git status`.
	SkippedWorktree []string
	// WorktreeErr is set when the commit landed but the work tree or index
	// could not be brought in step (for example a long-held index.lock). The
	// update stays journaled and is finished by the next Open or Commit.
	// It wraps ErrWorktreeIncomplete when a work-tree file is missing or
	// stale; SkippedWorktree never lists such a file.
	WorktreeErr error
}

// Commit writes a batch as exactly one commit and moves the branch from
// req.Parent to it (DESIGN.md §4). Only the trees on changed paths are
// rebuilt; objects are durable before the ref moves; the ref moves with
// git's lock-file protocol and compare-and-swap, returning ErrStale when the
// branch is no longer at req.Parent. A crash at any point leaves the branch
// at the old or the new commit, never in between. Then, when HEAD points to
// the branch in a non-bare repository, the changed paths of the work tree and
// index are updated (see CommitResult.SkippedWorktree).
//
// Commit takes the write lock unless a goroutine of this process holds Lock,
// in which case it joins that hold (so calling it between Lock and unlock
// does not deadlock).
func (s *Store) Commit(ctx context.Context, req CommitRequest) (CommitResult, error) {
	res := CommitResult{Hash: req.Parent}
	if err := ctx.Err(); err != nil {
		return res, err
	}
	trie, err := req.prepare()
	if err != nil {
		return res, err
	}

	done, err := s.beginBranchWrite(ctx)
	if err != nil {
		return res, err
	}
	defer done()
	// A work-tree update a dead process left half done comes first, so that
	// this commit's update starts from a work tree in step.
	res.WorktreeErr = s.finishPendingLocked()

	h, b, err := s.writeCommitLocked(req, trie)
	if errors.Is(err, ErrNoChange) {
		cur, err := s.readRef(s.refName())
		if err != nil {
			return res, err
		}
		if cur != req.Parent {
			return res, fmt.Errorf("gitstore: commit: branch at %s, expected %s: %w", short(cur), short(req.Parent), ErrStale)
		}
		return res, ErrNoChange
	}
	if err != nil {
		return res, err
	}
	// The journal is written before the ref moves: a crash right after the
	// move must still leave a record that the work tree is behind.
	var pending []wtEntry
	keepWorktree := false
	if s.workDir != "" {
		t, _ := s.headTarget()
		keepWorktree = t == s.refName()
	}
	if keepWorktree {
		if pending, err = s.journalWorktree(h, b.changes); err != nil {
			return res, err
		}
		withBlobData(pending, b.objects)
		s.staged = req.Pack
		defer func() { s.staged = nil }()
	}
	return s.landBranch(res, req.Parent, h, req.Message, req.Committer, keepWorktree, pending)
}

// prepare checks req's signatures and fills in their defaults (the author
// dated now, the committer as the author), and returns its changes as a
// trie of paths.
func (req *CommitRequest) prepare() (*changeNode, error) {
	if err := validSignature(req.Author); err != nil {
		return nil, err
	}
	if req.Author.When.IsZero() {
		req.Author.When = time.Now()
	}
	if req.Committer == (Signature{}) {
		req.Committer = req.Author
	}
	if err := validSignature(req.Committer); err != nil {
		return nil, err
	}
	if req.Committer.When.IsZero() {
		req.Committer.When = req.Author.When
	}
	return changeTrie(req.Changes)
}

// writeCommitLocked rebuilds the trees on the changed paths of req.Parent's
// tree and writes them, durably, with the commit of req; it returns the
// commit and the builder that holds its objects and changed files, or
// ErrNoChange when the changes leave the parent's tree as it is. No ref
// moves. The caller holds s.mu.
func (s *Store) writeCommitLocked(req CommitRequest, trie *changeNode) (Hash, *treeBuilder, error) {
	for _, c := range req.Changes {
		if !c.Delete && c.Data == nil && !c.Blob.IsZero() && (req.Pack == nil || !req.Pack.Has(c.Blob)) {
			return Hash{}, nil, fmt.Errorf("gitstore: commit: %s: blob %s is not in the request's pack", c.Path, short(c.Blob))
		}
	}
	parentTree, err := s.commitTree(req.Parent)
	if err != nil {
		return Hash{}, nil, fmt.Errorf("gitstore: commit: parent: %w", err)
	}
	b := &treeBuilder{s: s}
	root, empty, err := b.build(parentTree, trie, "")
	if err != nil {
		return Hash{}, nil, err
	}
	if empty {
		root = emptyTree
		b.objects = append(b.objects, object{hash: emptyTree, typ: treeObject})
	}
	if !req.AllowEmpty && (root == parentTree || (parentTree.IsZero() && root == emptyTree)) {
		return Hash{}, nil, ErrNoChange
	}
	var parents []Hash
	if !req.Parent.IsZero() {
		parents = []Hash{req.Parent}
	}
	data := encodeCommit(root, parents, req.Author, req.Committer, req.Message)
	h := hashObject(commitObject, data)
	b.objects = append(b.objects, object{hash: h, typ: commitObject, data: data})
	if req.Pack == nil {
		if err := s.writeObjects(b.objects); err != nil {
			return Hash{}, nil, err
		}
		return h, b, nil
	}
	for _, o := range b.objects {
		if err := req.Pack.addObject(o); err != nil {
			return Hash{}, nil, err
		}
	}
	if err := req.Pack.finish(); err != nil {
		return Hash{}, nil, err
	}
	return h, b, nil
}

// beginBranchWrite takes what moving the branch needs: the write lock
// (joining a Lock this process holds) and the repository mutex. done
// releases both.
func (s *Store) beginBranchWrite(ctx context.Context) (done func(), err error) {
	unlock, err := s.lockForCommit(ctx)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	return func() {
		s.mu.Unlock()
		unlock()
	}, nil
}

// landBranch moves the branch from old to new and brings the work tree
// and the index along (keepWorktree), after journaling them in pending.
//
// The work tree and the index are written first, under index.lock, and the
// branch moves after them; the index is renamed into place right after the
// move, which ends the lock. A git commit reads HEAD, then the index, then
// takes index.lock: with the lock held from before the move, a commit that
// read the moved HEAD can only find the index already in step, instead of
// reading the old one and committing the old tree on top, which would undo
// the batch. A crash leaves the lock, which keeps git from committing until
// pt's next command finishes the journal (and puts the files back when the
// branch never moved). When a git command holds index.lock past
// indexLockWait, the branch moves first and the index follows, as git
// allows.
//
// A file or the index that cannot be written before the branch moves (a
// full disk) abandons the batch; after the move it leaves the batch landed
// with WorktreeErr wrapping ErrWorktreeIncomplete.
func (s *Store) landBranch(res CommitResult, old, new Hash, msg string, who Signature, keepWorktree bool, pending []wtEntry) (CommitResult, error) {
	if keepWorktree {
		s.holdIndex()
		defer s.releaseIndex()
	}
	if !keepWorktree || s.indexHeld == nil {
		if err := s.updateRef(old, new, msg, who); err != nil {
			if keepWorktree {
				s.finishPendingLocked()
			}
			return res, err
		}
		res.Hash = new
		if keepWorktree {
			res.SkippedWorktree, res.WorktreeErr = s.syncWorktree(pending, 0, time.Time{})
		}
		return res, nil
	}
	states := s.syncFiles(pending)
	lockPath := s.indexHeld.Name()
	werr := writeFailure(states)
	var idxErr error
	if len(states) > 0 && werr == nil {
		idxErr = s.writeIndex(s.indexHeld, states)
		if idxErr != nil && !errors.Is(idxErr, errIndexUnsupported) {
			werr = describeOSError(idxErr)
		}
	}
	if werr != nil {
		// The branch has not moved: the batch is abandoned and the files
		// go back to what the branch holds.
		s.releaseIndex()
		s.finishPendingLocked()
		return res, fmt.Errorf("gitstore: work tree: %w; nothing was committed", werr)
	}
	moved := false
	publish := func() { // called once the branch has moved
		moved = true
		if len(states) > 0 && idxErr == nil {
			s.indexHeld = nil // publishIndex renames it, or removes it
			idxErr = s.publishIndex(lockPath)
		}
	}
	if err := s.updateRefThen(old, new, msg, who, publish); err != nil {
		if moved {
			// Only syncing the ref's directory failed: the batch has
			// landed. The journal stays unless the index followed.
			res.Hash = new
			res.WorktreeErr = err
			if idxErr == nil {
				os.Remove(s.journalPath())
			}
			return res, nil
		}
		s.releaseIndex()
		s.finishPendingLocked() // the files go back to what the branch holds
		return res, err
	}
	res.Hash = new
	for _, st := range states {
		if st.skipped {
			res.SkippedWorktree = append(res.SkippedWorktree, st.path)
		}
	}
	if idxErr == nil || errors.Is(idxErr, errIndexUnsupported) {
		if err := os.Remove(s.journalPath()); err != nil && !errors.Is(err, fs.ErrNotExist) && idxErr == nil {
			idxErr = err
		}
	}
	res.WorktreeErr = idxErr
	return res, nil
}

// validSignature rejects what would corrupt a commit header.
func validSignature(sig Signature) error {
	if strings.ContainsAny(sig.Name, "<>\n") || strings.ContainsAny(sig.Email, "<>\n") {
		return fmt.Errorf("gitstore: commit: invalid identity %q <%s>", sig.Name, sig.Email)
	}
	if sig.Name == "" && sig.Email == "" {
		return errors.New("gitstore: commit: author is required")
	}
	return nil
}
