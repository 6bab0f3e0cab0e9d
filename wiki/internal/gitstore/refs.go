package gitstore

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

// ErrStale is returned by Commit when the branch is not at the expected
// parent: another writer (pt or git) moved it first. Nothing was lost; the
// caller re-reads the head and re-applies or reports a conflict.
var ErrStale = errors.New("branch moved")

// refLockStaleAfter is how old a <ref>.lock must be before a pt writer that
// holds the pt flock removes it: git holds ref locks for milliseconds, so an
// older one was left by a process that died.
const refLockStaleAfter = 2 * time.Second

// refLockWait is how long a writer waits for a live <ref>.lock to go away.
const refLockWait = 3 * time.Second

// refName is the full name of the store's branch.
func (s *Store) refName() string { return "refs/heads/" + s.branch }

// readRef returns the value of a ref in the common git dir: the loose file
// if present, else its line in packed-refs, else the zero hash.
func (s *Store) readRef(name string) (Hash, error) {
	h, err := s.readRefFile(name)
	if err == nil && h.IsZero() && name == s.refName() {
		h = s.detachedBase // zero unless adoptDetached set it
	}
	return h, err
}

func (s *Store) readRefFile(name string) (Hash, error) {
	data, err := readReplaced(filepath.Join(s.commonDir, filepath.FromSlash(name)))
	switch {
	case err == nil:
		line := strings.TrimSpace(string(data))
		if strings.HasPrefix(line, "ref:") {
			return Hash{}, fmt.Errorf("gitstore: %s is a symbolic ref", name)
		}
		return ParseHash(line)
	case errors.Is(err, fs.ErrNotExist), isNotDir(err):
	default:
		return Hash{}, fmt.Errorf("gitstore: read %s: %w", name, err)
	}
	return s.readPackedRef(name)
}

func isNotDir(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe) && strings.Contains(pe.Err.Error(), "not a directory")
}

func (s *Store) readPackedRef(name string) (Hash, error) {
	f, err := os.Open(filepath.Join(s.commonDir, "packed-refs"))
	if errors.Is(err, fs.ErrNotExist) {
		return Hash{}, nil
	}
	if err != nil {
		return Hash{}, fmt.Errorf("gitstore: read packed-refs: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) < 42 || line[0] == '#' || line[0] == '^' {
			continue
		}
		if string(line[41:]) == name && line[40] == ' ' {
			return ParseHash(string(line[:40]))
		}
	}
	if err := sc.Err(); err != nil {
		return Hash{}, fmt.Errorf("gitstore: read packed-refs: %w", err)
	}
	return Hash{}, nil
}

// headTarget returns the ref HEAD points to in this (work tree's) git dir,
// or "" when HEAD is detached.
func (s *Store) headTarget() (string, error) {
	data, err := readReplaced(filepath.Join(s.gitDir, "HEAD"))
	if err != nil {
		return "", fmt.Errorf("gitstore: read HEAD: %w", err)
	}
	line := strings.TrimSpace(string(data))
	if t, ok := strings.CutPrefix(line, "ref:"); ok {
		return strings.TrimSpace(t), nil
	}
	return "", nil
}

// updateRef moves the branch from old to new with git's lock-file protocol.
// The caller holds the pt write lock, which is what makes an old <ref>.lock
// safe to call stale: no live pt writer can hold it.
func (s *Store) updateRef(old, new Hash, msg string, who Signature) error {
	return s.updateRefThen(old, new, msg, who, nil)
}

// updateRefThen is updateRef, calling then as soon as the branch has moved
// (setRefThen).
func (s *Store) updateRefThen(old, new Hash, msg string, who Signature, then func()) error {
	if err := s.setRefThen(s.refName(), old, new, false, then); err != nil {
		return err
	}
	s.appendReflog(old, new, msg, who)
	return nil
}

func short(h Hash) string {
	if h.IsZero() {
		return "nothing (unborn)"
	}
	return h.String()[:12]
}

// createLockFile creates path exclusively, clearing a lock file older than
// refLockStaleAfter and waiting up to refLockWait for a younger one.
func createLockFile(path string) (*os.File, error) {
	deadline := time.Now().Add(refLockWait)
	for {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		if fi, serr := os.Stat(path); serr == nil && time.Since(fi.ModTime()) > refLockStaleAfter {
			os.Remove(path) // left by a dead writer; git keeps these for milliseconds
			continue
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("lock file %s is held by another process (remove it if no git command is running)", path)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// appendReflog adds the line git would add to logs/<ref> and logs/HEAD.
// Best-effort, as in git: a reflog is history for humans, not state.
func (s *Store) appendReflog(old, new Hash, msg string, who Signature) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %s %s\t%s\n", old, new, formatIdent(who), reflogMessage(old, msg))
	line := b.Bytes()
	logs := []string{filepath.Join(s.commonDir, "logs", filepath.FromSlash(s.refName()))}
	if t, _ := s.headTarget(); t == s.refName() {
		logs = append(logs, filepath.Join(s.gitDir, "logs", "HEAD"))
	}
	for _, p := range logs {
		if _, err := os.Stat(p); err != nil && s.workDir == "" {
			continue // bare repositories keep no reflog unless one was started
		}
		os.MkdirAll(filepath.Dir(p), 0o755)
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			continue
		}
		f.Write(line)
		f.Close()
	}
}

func reflogMessage(old Hash, msg string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(msg), "\n")
	if old.IsZero() {
		return "commit (initial): " + line
	}
	return "commit: " + line
}

// adoptDetached picks the branch for a detached HEAD. A CI runner checks
// out a commit with no local branch: there the branch is the
// remote-tracking branch HEAD sits on (origin/trunk gives trunk), else
// DefaultBranch, and HEAD's commit stands for it until a batch creates it;
// once a batch has, the next command finds that local branch by the same
// rule. Otherwise pt writes to DefaultBranch and leaves the detached work
// tree alone.
func (s *Store) adoptDetached() error {
	refs, err := s.repo.References()
	if err != nil {
		return fmt.Errorf("gitstore: list refs: %w", err)
	}
	defer refs.Close()
	var remote []*plumbing.Reference
	local := map[string]Hash{} // branch name → tip
	_ = refs.ForEach(func(r *plumbing.Reference) error {
		switch {
		case r.Name().IsBranch():
			local[r.Name().Short()] = Hash(r.Hash())
		case r.Name().IsRemote() && r.Type() == plumbing.HashReference:
			remote = append(remote, r)
		}
		return nil
	})
	data, err := readReplaced(filepath.Join(s.gitDir, "HEAD"))
	if err != nil {
		return fmt.Errorf("gitstore: read HEAD: %w", err)
	}
	head, err := ParseHash(strings.TrimSpace(string(data)))
	if err != nil {
		return fmt.Errorf("gitstore: HEAD: %w", err)
	}
	tracked := ""
	for _, r := range remote {
		if Hash(r.Hash()) == head {
			_, b, _ := strings.Cut(strings.TrimPrefix(r.Name().String(), "refs/remotes/"), "/")
			if b != "" && b != "HEAD" {
				tracked = b
				break
			}
		}
	}
	switch {
	case tracked != "" && !local[tracked].IsZero():
		s.branch = tracked
	case len(local) > 0:
		// DefaultBranch, as set by Open, when the repository has it; else
		// the branch an earlier command of the job started on top of HEAD
		// (a push or a fetch since has moved the tracking ref past HEAD).
		if local[DefaultBranch].IsZero() {
			if b := s.branchAbove(head, local); b != "" {
				s.branch = b
			}
		}
	default:
		if tracked != "" {
			s.branch = tracked
		}
		s.detachedBase = head
	}
	return nil
}

// clearStaleRefLock removes a <branch>.lock that a writer killed while moving
// the branch left behind, when pt opens the repository: otherwise a
// person's git commit is refused until the next pt write clears it. Only
// a lock older than refLockStaleAfter goes (git holds its ref locks for
// milliseconds), and only while no pt writer holds the write lock.
func (s *Store) clearStaleRefLock(ctx context.Context) {
	p := filepath.Join(s.commonDir, filepath.FromSlash(s.refName())) + ".lock"
	if fi, err := os.Stat(p); err != nil || time.Since(fi.ModTime()) < refLockStaleAfter {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	unlock, err := s.Lock(ctx)
	if err != nil {
		return // a writer is at work: the lock may be its own
	}
	defer unlock()
	if fi, err := os.Stat(p); err == nil && time.Since(fi.ModTime()) >= refLockStaleAfter {
		os.Remove(p)
	}
}

// branchAbove returns the first local branch by name whose first-parent
// history, within its newest 1,000 commits, holds commit; "" when none
// does. local maps each branch to its tip.
func (s *Store) branchAbove(commit Hash, local map[string]Hash) string {
	names := make([]string, 0, len(local))
	for b := range local {
		names = append(names, b)
	}
	slices.Sort(names)
	for _, b := range names {
		h := local[b]
		for i := 0; !h.IsZero() && i < 1000; i++ {
			if h == commit {
				return b
			}
			c, err := s.commitInfo(h)
			if err != nil || len(c.Parents) == 0 {
				break
			}
			h = c.Parents[0]
		}
	}
	return ""
}
