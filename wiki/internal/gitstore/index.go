package gitstore

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

var (
	// errIndexBusy: index.lock is held by a live process (a git command);
	// the update stays journaled and is retried by the next Commit or Open.
	errIndexBusy = errors.New("index is locked by another process")
	// errIndexUnsupported: an index pt must not rewrite (unmerged entries,
	// split or sparse index); the work tree was updated, the index was not.
	errIndexUnsupported = errors.New("index not updated")
)

// indexLockWait is how long to wait for a git command's index.lock.
const indexLockWait = time.Second

// updateIndex records the synced paths in .git/index with the stat data git
// compares, so that `git status` shows them clean without rehashing. Paths
// left alone in the work tree are recorded at their new blob only when the
// user had nothing staged for them (their edit then shows as a modification
// on top of the new commit); a staged change is never replaced.
func (s *Store) updateIndex(states []wtState, deadPID int, since time.Time) error {
	if len(states) == 0 {
		return nil
	}
	idxPath := filepath.Join(s.gitDir, "index")
	lockPath := idxPath + ".lock"
	lock, err := s.lockIndex(lockPath, deadPID, since)
	if err != nil {
		return err
	}
	done := false
	defer func() {
		if !done {
			lock.Close()
			os.Remove(lockPath)
		}
	}()

	idx := &index.Index{Version: 2}
	if f, err := os.Open(idxPath); err == nil {
		err = index.NewDecoder(bufio.NewReader(f)).Decode(idx)
		f.Close()
		if err != nil {
			return fmt.Errorf("gitstore: read index: %v: %w", err, errIndexUnsupported)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("gitstore: read index: %w", err)
	}
	pos := make(map[string]int, len(idx.Entries))
	for i, e := range idx.Entries {
		if e.Stage != 0 { // go-git calls stage 1 "Merged"; git's merged stage is 0
			return fmt.Errorf("gitstore: index has unmerged path %s: %w", e.Name, errIndexUnsupported)
		}
		pos[e.Name] = i
	}
	drop := map[string]bool{}
	for _, st := range states {
		i, present := pos[st.path]
		var staged Hash
		if present {
			staged = Hash(idx.Entries[i].Hash)
		}
		if !st.inStep && !slices.Contains(st.ok, staged) {
			continue // the user staged something else: theirs to resolve
		}
		if st.to.IsZero() {
			if present {
				drop[st.path] = true
			}
			continue
		}
		e := &index.Entry{Name: st.path, Hash: plumbing.Hash(st.to), Mode: filemode.FileMode(st.mode)}
		if st.inStep && st.fi != nil {
			fillStat(e, st.fi)
		}
		if present {
			idx.Entries[i] = e
		} else {
			idx.Entries = append(idx.Entries, e)
			pos[st.path] = len(idx.Entries) - 1
		}
	}
	if len(drop) > 0 {
		idx.Entries = slices.DeleteFunc(idx.Entries, func(e *index.Entry) bool { return drop[e.Name] })
	}
	// A file and a directory of the same name cannot both be in the index;
	// the tree we committed has one of them, so drop entries it lacks.
	idx.Entries = dropShadowed(idx.Entries)
	idx.Cache = nil // cached trees of changed directories are now wrong; git rebuilds them

	w := bufio.NewWriter(lock)
	if err := index.NewEncoder(w).Encode(idx); err != nil {
		return fmt.Errorf("gitstore: write index: %w", err)
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("gitstore: write index: %w", err)
	}
	if err := lock.Sync(); err != nil {
		return fmt.Errorf("gitstore: write index: %w", err)
	}
	if err := lock.Close(); err != nil {
		return fmt.Errorf("gitstore: write index: %w", err)
	}
	if err := os.Rename(lockPath, idxPath); err != nil {
		return fmt.Errorf("gitstore: write index: %w", err)
	}
	done = true
	return nil
}

// dropShadowed removes entries "a/..." when "a" is also a file entry (or the
// reverse, keeping the file): a state only a half-applied type change leaves.
func dropShadowed(entries []*index.Entry) []*index.Entry {
	files := make(map[string]bool, len(entries))
	for _, e := range entries {
		files[e.Name] = true
	}
	return slices.DeleteFunc(entries, func(e *index.Entry) bool {
		for p := e.Name; ; {
			i := strings.LastIndexByte(p, '/')
			if i < 0 {
				return false
			}
			p = p[:i]
			if files[p] {
				return true
			}
		}
	})
}

// lockIndex takes index.lock the way git does. A lock left by a pt process
// that died while finishing its journal (deadPID, created after `since`) is
// removed; any other is a live git command's and is waited for briefly.
func (s *Store) lockIndex(lockPath string, deadPID int, since time.Time) (*os.File, error) {
	deadline := time.Now().Add(indexLockWait)
	for {
		f, err := os.OpenFile(lockPath, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("gitstore: lock index: %w", err)
		}
		if fi, serr := os.Stat(lockPath); serr == nil && deadPID != 0 && processDead(deadPID) &&
			!fi.ModTime().Before(since.Add(-time.Second)) {
			os.Remove(lockPath)
			continue
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("gitstore: %s: %w", lockPath, errIndexBusy)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// fillStat copies the stat data git compares to decide a file is unchanged.
func fillStat(e *index.Entry, fi os.FileInfo) {
	e.ModifiedAt = fi.ModTime()
	e.Size = uint32(fi.Size())
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		e.CreatedAt = time.Unix(st.Ctim.Sec, st.Ctim.Nsec)
		e.Dev = uint32(st.Dev)
		e.Inode = uint32(st.Ino)
		e.UID = st.Uid
		e.GID = st.Gid
	}
}
