package gitstore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
)

var (
	// errIndexBusy: index.lock is held by a live process (a git command);
	// the update stays journaled and is retried by the next Commit or Open.
	errIndexBusy = errors.New("index is locked by another process")
	// errIndexUnsupported: an index pt must not rewrite (split or sparse
	// index, unknown format); the work tree was updated, the index was not.
	errIndexUnsupported = errors.New("index not updated")
)

// indexLockWait is how long to wait for a git command's index.lock.
const indexLockWait = time.Second

// updateIndex records the synced paths in .git/index with the stat data git
// compares, so that `git status` shows them clean without rehashing. Paths
// left alone in the work tree are recorded at their new blob only when the
// user had nothing staged for them (their edit then shows as a modification
// on top of the new commit); a staged change or a merge conflict is never
// replaced.
func (s *Store) updateIndex(states []wtState, deadPID int, since time.Time) error {
	if len(states) == 0 {
		return nil
	}
	lockPath := s.indexPath() + ".lock"
	lock, err := s.lockIndex(lockPath, deadPID, since)
	if err != nil {
		return err
	}
	if err := s.writeIndex(lock, states); err != nil {
		lock.Close()
		os.Remove(lockPath)
		return err
	}
	return s.publishIndex(lockPath)
}

func (s *Store) indexPath() string { return filepath.Join(s.gitDir, "index") }

// writeIndex writes the index with states applied into lock (index.lock,
// held by the caller), syncs and closes it; publishIndex then renames it
// into place. On error lock is left for the caller to remove.
func (s *Store) writeIndex(lock *os.File, states []wtState) error {
	idx := &indexFile{version: 2}
	if data, err := os.ReadFile(s.indexPath()); err == nil {
		if idx, err = parseIndex(data); err != nil {
			return fmt.Errorf("gitstore: read index: %v: %w", err, errIndexUnsupported)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("gitstore: read index: %w", err)
	}
	updates := map[string]*indexEntry{} // nil: remove the entry
	dirty := map[string]bool{"": true}
	for _, st := range states {
		staged, present, unmerged := idx.find(st.path)
		if unmerged {
			continue
		}
		if !st.inStep && !slices.Contains(st.ok, staged) {
			continue // the user staged something else: theirs to resolve
		}
		if st.to.IsZero() {
			if present {
				updates[st.path] = nil
			}
		} else {
			var fi os.FileInfo
			if st.inStep {
				fi = st.fi
			}
			e := newIndexEntry(st.path, st.to, st.mode, fi)
			updates[st.path] = &e
		}
		for d := st.path; strings.Contains(d, "/"); {
			d = d[:strings.LastIndexByte(d, '/')]
			dirty[d] = true
		}
	}
	idx.entries = applyIndexUpdates(idx.entries, updates)

	if _, err := lock.Write(idx.encode(dirty)); err != nil {
		return fmt.Errorf("gitstore: write index: %w", err)
	}
	if err := s.fsync(lock); err != nil {
		return fmt.Errorf("gitstore: write index: %w", err)
	}
	if err := lock.Close(); err != nil {
		return fmt.Errorf("gitstore: write index: %w", err)
	}
	return nil
}

// publishIndex renames a written index.lock into place, which also
// releases it; on error the lock file is removed.
func (s *Store) publishIndex(lockPath string) error {
	if err := replaceFile(lockPath, s.indexPath()); err != nil {
		os.Remove(lockPath)
		return fmt.Errorf("gitstore: write index: %w", err)
	}
	return nil
}

// find returns the staged blob of path (its stage-0 entry) and whether
// the path is unmerged (has entries of stages 1 to 3). Entries are sorted
// by name, then stage.
func (idx *indexFile) find(path string) (staged Hash, present, unmerged bool) {
	i := sort.Search(len(idx.entries), func(i int) bool { return idx.entries[i].name >= path })
	for ; i < len(idx.entries) && idx.entries[i].name == path; i++ {
		if e := idx.entries[i]; e.stage != 0 {
			unmerged = true
		} else {
			staged, present = e.hash(), true
		}
	}
	return staged, present, unmerged
}

// applyIndexUpdates replaces, removes and inserts stage-0 entries, keeping
// the index sorted: the entries between two updated paths are copied as a
// run, found by binary search, since an index holds every file of the
// repository and a batch changes a few. An added entry that would make a
// path both a file and a directory in the index (possible only when a
// user's staged change was kept) is not added.
func applyIndexUpdates(entries []indexEntry, updates map[string]*indexEntry) []indexEntry {
	names := make([]string, 0, len(updates))
	for name := range updates {
		names = append(names, name)
	}
	slices.Sort(names)
	out := make([]indexEntry, 0, len(entries)+len(updates))
	var adds []indexEntry
	last := 0
	for _, name := range names {
		u := updates[name]
		i := last + sort.Search(len(entries)-last, func(i int) bool { return entries[last+i].name >= name })
		if i < len(entries) && entries[i].name == name && entries[i].stage == 0 {
			out = append(out, entries[last:i]...)
			if u != nil {
				out = append(out, *u)
			}
			last = i + 1
		} else if u != nil {
			adds = append(adds, *u)
		}
	}
	out = append(out, entries[last:]...)
	if len(adds) == 0 {
		return out
	}
	merged := make([]indexEntry, 0, len(out)+len(adds))
	i := 0
	for _, a := range adds {
		j := i + sort.Search(len(out)-i, func(k int) bool { return out[i+k].name >= a.name })
		merged = append(merged, out[i:j]...)
		i = j
		if dirFileConflict(out, a.name) {
			continue
		}
		merged = append(merged, a)
	}
	return append(merged, out[i:]...)
}

// dirFileConflict reports whether sorted entries hold a parent directory of
// name as a file, or files under name as a directory.
func dirFileConflict(entries []indexEntry, name string) bool {
	find := func(p string) (int, bool) {
		return slices.BinarySearchFunc(entries, p, func(e indexEntry, p string) int { return strings.Compare(e.name, p) })
	}
	for d := name; strings.Contains(d, "/"); {
		d = d[:strings.LastIndexByte(d, '/')]
		if _, ok := find(d); ok {
			return true
		}
	}
	i, _ := find(name + "/")
	return i < len(entries) && strings.HasPrefix(entries[i].name, name+"/")
}

// lockIndex takes index.lock the way git does. A lock pt left to hold git
// off (holdOffGit), or left by a pt process that died while finishing its
// journal (deadPID, created after `since`), is removed; any other is a live
// git command's and is waited for briefly. The caller holds the write lock.
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
		if s.releaseHeldOffIndex(lockPath) {
			continue
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

// holdIndex takes index.lock for landBranch, which writes the index for the
// new commit into it before the branch moves and renames it into place
// right after; when a git command holds the lock past indexLockWait,
// nothing is held. The caller holds s.mu.
func (s *Store) holdIndex() {
	if f, err := s.lockIndex(s.indexPath()+".lock", 0, time.Time{}); err == nil {
		s.indexHeld = f
	}
}

// releaseIndex gives back an index.lock holdIndex took and no publishIndex
// consumed.
func (s *Store) releaseIndex() {
	if f := s.indexHeld; f != nil {
		s.indexHeld = nil
		f.Close() // may be closed already (writeIndex)
		os.Remove(f.Name())
	}
}
