package gitstore

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// wtEntry is one path the work tree and index must follow: its target is
// the blob at the branch head (zero: the path is deleted) and ok lists the
// prior contents that may be overwritten (zero: absence may be overwritten).
// Any other content is a user's edit and is left alone.
type wtEntry struct {
	path string
	ok   []Hash
	to   Hash
	mode uint32
	// data is the content of `to` when the committing process still has
	// it in memory (it is never journaled); nil means read the blob.
	data []byte
}

// wtState is what syncFiles found and did for one path.
type wtState struct {
	wtEntry
	inStep  bool        // the work-tree file now holds `to`
	fi      os.FileInfo // its stat, when inStep and present
	skipped bool        // a user's edit was left alone
	// err is why the path could not be brought in step (a full disk, an
	// I/O error): never a person's edit, so never reported as one.
	err error
}

const journalName = "worktree.pending"

func (s *Store) journalPath() string { return filepath.Join(s.gitDir, "pt", journalName) }

// journalWorktree records, before the branch moves to h, the paths whose
// work-tree files and index entries must then follow it, so that a crash at
// any later point is finished by the next Open or Commit. Paths still pending
// from an earlier, unfinished update are carried along. The caller holds s.mu
// and the write lock, and passes the entries to syncWorktree once the ref
// has moved (after withBlobData when it has the new content in memory).
func (s *Store) journalWorktree(h Hash, changes []fileChange) ([]wtEntry, error) {
	entries := make([]wtEntry, 0, len(changes))
	seen := make(map[string]int, len(changes))
	for _, c := range changes {
		seen[c.path] = len(entries)
		entries = append(entries, wtEntry{path: c.path, ok: []Hash{c.from, c.to}, to: c.to, mode: c.mode})
	}
	if old, _, _, err := s.readJournal(); err == nil {
		root, err := s.commitTree(h)
		if err != nil {
			return nil, err
		}
		for _, e := range old {
			if i, dup := seen[e.path]; dup {
				entries[i].ok = append(entries[i].ok, e.ok...)
				continue
			}
			if err := s.retarget(root, &e); err != nil {
				return nil, err
			}
			entries = append(entries, e)
		}
	}
	if err := s.writeJournal(entries); err != nil {
		return nil, err
	}
	return entries, nil
}

// withBlobData hands the entries the content of the blobs the commit has
// just written, found in objs, so that the work tree is written from memory
// rather than read back from the pack or loose objects.
func withBlobData(entries []wtEntry, objs []object) {
	blobs := make(map[Hash][]byte, len(entries))
	for _, o := range objs {
		if o.typ == blobObject {
			blobs[o.hash] = o.data
		}
	}
	for i := range entries {
		entries[i].data = blobs[entries[i].to]
	}
}

// retarget sets e's target to its content in tree root, keeping the prior
// contents it may overwrite.
func (s *Store) retarget(root Hash, e *wtEntry) error {
	te, found, err := s.lookup(root, e.path)
	if err != nil {
		return err
	}
	e.to, e.mode, e.data = Hash{}, 0, nil
	if found && !te.isTree() && te.mode != modeGitlink {
		e.to, e.mode = te.hash, te.mode
	}
	e.ok = append(e.ok, e.to)
	return nil
}

// finishPending completes a journaled work-tree update left by a process
// that died, so the work tree catches up with no manual repair.
func (s *Store) finishPending(ctx context.Context) error {
	if _, err := os.Stat(s.journalPath()); err != nil {
		return nil
	}
	done, err := s.beginBranchWrite(ctx)
	if err != nil {
		return err
	}
	defer done()
	if err := s.finishPendingLocked(); err != nil && !errors.Is(err, errIndexBusy) {
		return err
	}
	return nil
}

// finishPendingLocked finishes a pending journal against the current head.
// The caller holds s.mu and the write lock.
func (s *Store) finishPendingLocked() error {
	entries, pid, mine, err := s.readJournal()
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		os.Remove(s.journalPath()) // unreadable: a crash while writing it, before any file was touched
		return nil
	}
	jfi, _ := os.Stat(s.journalPath())
	if dead := !mine && (pid == os.Getpid() || processDead(pid)); jfi != nil && pid != 0 && dead {
		// The index.lock the dead writer held across its branch move
		// (landBranch) goes first: until it does, git refuses to commit.
		// A writer with this process's pid but not its nonce was an
		// earlier run (every run may be pid 1 in a container).
		lockPath := filepath.Join(s.gitDir, "index.lock")
		if fi, err := os.Stat(lockPath); err == nil && !fi.ModTime().Before(jfi.ModTime().Add(-time.Second)) {
			os.Remove(lockPath)
		}
	}
	if t, _ := s.headTarget(); s.workDir == "" || t != s.refName() {
		return os.Remove(s.journalPath()) // HEAD left the branch: nothing to keep in step
	}
	head, err := s.readRef(s.refName())
	if err != nil {
		return err
	}
	root, err := s.commitTree(head)
	if err != nil {
		return err
	}
	for i := range entries {
		if err := s.retarget(root, &entries[i]); err != nil {
			return err
		}
		s.removeTempFiles(entries[i].path)
	}
	var since time.Time
	if jfi != nil {
		since = jfi.ModTime()
	}
	_, err = s.syncWorktree(entries, pid, since)
	return err
}

// syncWorktree updates files, then the index, then drops the journal.
// deadPID and since describe the process whose journal is being finished, so
// that an index.lock it left behind can be recognised as stale.
//
// When a file could not be written the journal stays, and git is held off
// (holdOffGit) until a later pt command finishes it: an index that says the
// batch's files are there while the work tree lacks them would let a
// person's `git commit -a` commit their deletion.
func (s *Store) syncWorktree(entries []wtEntry, deadPID int, since time.Time) ([]string, error) {
	states := s.syncFiles(entries)
	var skipped []string
	for _, st := range states {
		if st.skipped {
			skipped = append(skipped, st.path)
		}
	}
	if werr := writeFailure(states); werr != nil {
		s.holdOffGit(deadPID, since)
		return skipped, fmt.Errorf("%w: %w", ErrWorktreeIncomplete, werr)
	}
	err := s.updateIndex(states, deadPID, since)
	if err == nil || errors.Is(err, errIndexUnsupported) {
		if rerr := os.Remove(s.journalPath()); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) && err == nil {
			err = rerr
		}
	}
	return skipped, err
}

// syncWorkers bounds the goroutines writing work-tree files. Creating a
// file is mostly kernel time (0.5–1 ms on some virtual machines), so an
// import of thousands of files is bound by it; a few more workers than
// cores keep every core busy while some wait on the disk.
const syncWorkers = 8

// syncFiles writes and deletes work-tree files. Deletes go first, deepest
// first and one at a time, so that a file can replace a directory and the
// reverse; the writes, which never touch the same path or a path below
// another (a tree cannot hold both), then run in parallel.
func (s *Store) syncFiles(entries []wtEntry) []wtState {
	order := slices.Clone(entries)
	slices.SortStableFunc(order, func(a, b wtEntry) int {
		if a.to.IsZero() != b.to.IsZero() {
			if a.to.IsZero() {
				return -1
			}
			return 1
		}
		if a.to.IsZero() {
			return strings.Compare(b.path, a.path)
		}
		return strings.Compare(a.path, b.path)
	})
	out := make([]wtState, len(order))
	writes := 0
	for i, e := range order {
		if !e.to.IsZero() {
			writes = len(order) - i
			break
		}
		out[i] = s.syncFile(e, nil)
	}
	first := len(order) - writes
	spreadOverDirs(order[first:])
	// Blobs not in memory (an update finished after a crash) are read from
	// the repository, one worker at a time: the caller holds s.mu for all
	// of them, and go-git's storage is not safe for concurrent use.
	var readMu sync.Mutex
	read := func(h Hash) ([]byte, error) {
		if s.staged != nil && s.staged.Has(h) {
			return s.staged.Blob(h) // a finished pack: safe from every worker
		}
		readMu.Lock()
		defer readMu.Unlock()
		return s.readTyped(h, blobObject)
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(syncWorkers, writes) {
		wg.Go(func() {
			for {
				i := first + int(next.Add(1)) - 1
				if i >= len(order) {
					return
				}
				out[i] = s.syncFile(order[i], read)
			}
		})
	}
	wg.Wait()
	return out
}

// spreadOverDirs reorders writes so that neighbours are in different
// directories: the first file of every directory, then the second, and so
// on. The kernel creates one file at a time per directory (it locks the
// directory), so workers taking neighbouring entries then work in parallel.
func spreadOverDirs(writes []wtEntry) {
	rank := make(map[string]int, len(writes))
	ranks := make(map[string]int, 64)
	for _, e := range writes {
		dir, _ := path.Split(e.path)
		rank[e.path] = ranks[dir]
		ranks[dir]++
	}
	slices.SortStableFunc(writes, func(a, b wtEntry) int { return rank[a.path] - rank[b.path] })
}

// syncFile brings one path in step; read fetches a blob the entry does not
// carry (nil for deletes). A person's edit, an untracked file or a directory
// in the way is skipped; a write that fails is an error (wtState.err).
func (s *Store) syncFile(e wtEntry, read func(Hash) ([]byte, error)) wtState {
	st := wtState{wtEntry: e}
	st.data = nil // the state outlives the write: do not keep the content
	full := filepath.Join(s.workDir, filepath.FromSlash(e.path))
	if s.symlinkAbove(e.path) {
		// git never writes through a symlinked directory: it could lead
		// outside the work tree.
		st.skipped = true
		return st
	}
	cur, kind, err := currentBlob(full)
	okPrior := kind != kindOther && slices.Contains(e.ok, cur)
	switch {
	case err != nil:
		st.err = err
	case kind == kindOther: // a directory or something odd where a file belongs
		st.skipped = true
	case e.to.IsZero() && kind == kindAbsent:
		st.inStep = true
	case e.to.IsZero() && okPrior:
		if err := os.Remove(full); err != nil {
			st.err = err
			break
		}
		st.inStep = true
		s.removeEmptyDirs(filepath.Dir(full))
	case e.to.IsZero():
		st.skipped = true
	case cur == e.to && kind == kindFile:
		st.inStep = true
	case okPrior:
		st.err = s.writeBlob(full, e, read)
		st.inStep = st.err == nil
	default:
		st.skipped = true
	}
	if st.inStep && !e.to.IsZero() {
		fi, err := os.Lstat(full)
		if err != nil {
			st.inStep, st.err = false, err
		} else {
			st.fi = fi
		}
	}
	return st
}

// writeBlob writes e's target content at full, reading it with read when
// the entry does not carry it.
func (s *Store) writeBlob(full string, e wtEntry, read func(Hash) ([]byte, error)) error {
	data := e.data
	if data == nil {
		var err error
		if data, err = read(e.to); err != nil {
			return err
		}
	}
	if s.writeFile != nil {
		return s.writeFile(full, data, e.mode)
	}
	return writeFileAtomic(full, data, e.mode)
}

type fileKind int

const (
	kindAbsent fileKind = iota
	kindFile            // regular file or symlink
	kindOther
)

// currentBlob hashes the work-tree file at full as git would. An error
// is a file that is there but cannot be read.
func currentBlob(full string) (Hash, fileKind, error) {
	fi, err := os.Lstat(full)
	switch {
	case errors.Is(err, fs.ErrNotExist), isNotDir(err):
		return Hash{}, kindAbsent, nil
	case err != nil:
		return Hash{}, kindOther, nil
	case fi.Mode().IsRegular():
		data, err := os.ReadFile(full)
		if err != nil {
			return Hash{}, kindOther, err
		}
		return hashObject(blobObject, data), kindFile, nil
	case fi.Mode()&fs.ModeSymlink != 0:
		t, err := os.Readlink(full)
		if err != nil {
			return Hash{}, kindOther, err
		}
		return hashObject(blobObject, []byte(t)), kindFile, nil
	}
	return Hash{}, kindOther, nil
}

// writeFileAtomic replaces full with data through a temp file and a
// rename, so a reader (or a crash) never sees half a file.
func writeFileAtomic(full string, data []byte, mode uint32) error {
	dir := filepath.Dir(full)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".pt-tmp-")
	if err != nil {
		return err
	}
	perm := fs.FileMode(0o644)
	if mode == modeExec {
		perm = 0o755
	}
	_, werr := f.Write(data)
	if werr == nil {
		werr = f.Chmod(perm)
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = replaceFile(f.Name(), full)
	}
	if werr != nil {
		os.Remove(f.Name())
	}
	return werr
}

// symlinkAbove reports whether a directory on the way to path is a
// symlink in the work tree.
func (s *Store) symlinkAbove(path string) bool {
	dir := s.workDir
	parts := strings.Split(path, "/")
	for _, name := range parts[:len(parts)-1] {
		dir = filepath.Join(dir, name)
		fi, err := os.Lstat(dir)
		if err != nil {
			return false // missing: it will be created as a directory
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return true
		}
	}
	return false
}

// removeTempFiles removes the temp files a killed writer may have left next
// to path (they would show as untracked files).
func (s *Store) removeTempFiles(path string) {
	dir := filepath.Join(s.workDir, filepath.FromSlash(path), "..")
	matches, _ := filepath.Glob(filepath.Join(dir, ".pt-tmp-*"))
	for _, m := range matches {
		os.Remove(m)
	}
}

// removeEmptyDirs removes dir and its parents up to the work tree root while
// they are empty, as git does when the last file of a directory goes.
func (s *Store) removeEmptyDirs(dir string) {
	for dir != s.workDir && strings.HasPrefix(dir, s.workDir+string(filepath.Separator)) {
		if err := os.Remove(dir); err != nil {
			return
		}
		dir = filepath.Dir(dir)
	}
}

// Journal format: a header line, "pid N NONCE", then one line per path:
// quoted path, then the acceptable prior blobs, space-separated. NONCE is
// random per process: in a container every run of pt may be pid 1, and a
// journal left by a dead run must not pass for the live one's.
const journalHeader = "pt worktree journal v1"

// processNonce tells this process's journals from those of a dead process
// that had the same pid.
var processNonce = func() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}()

func (s *Store) writeJournal(entries []wtEntry) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s\npid %d %s\n", journalHeader, os.Getpid(), processNonce)
	for _, e := range entries {
		b.WriteString(strconv.Quote(e.path))
		for _, h := range e.ok {
			b.WriteByte(' ')
			b.WriteString(h.String())
		}
		b.WriteByte('\n')
	}
	p := s.journalPath()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("gitstore: write journal: %w", err)
	}
	tmp := p + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return fmt.Errorf("gitstore: write journal: %w", err)
	}
	_, err = f.Write(b.Bytes())
	if err == nil {
		err = s.fsync(f)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = replaceFile(tmp, p)
	}
	if err == nil {
		err = s.fsyncDir(filepath.Dir(p))
	}
	if err != nil {
		return fmt.Errorf("gitstore: write journal: %w", err)
	}
	return nil
}

// readJournal returns a journal's entries and the pid that wrote it, and
// whether this very process did.
func (s *Store) readJournal() (_ []wtEntry, pid int, mine bool, _ error) {
	data, err := os.ReadFile(s.journalPath())
	if err != nil {
		return nil, 0, false, err
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	if !sc.Scan() || sc.Text() != journalHeader {
		return nil, 0, false, errors.New("gitstore: malformed journal")
	}
	if !sc.Scan() {
		return nil, 0, false, errors.New("gitstore: malformed journal")
	}
	f := strings.Fields(sc.Text())
	if len(f) < 2 || f[0] != "pid" {
		return nil, 0, false, errors.New("gitstore: malformed journal")
	}
	if pid, err = strconv.Atoi(f[1]); err != nil {
		return nil, 0, false, errors.New("gitstore: malformed journal")
	}
	mine = pid == os.Getpid() && len(f) == 3 && f[2] == processNonce
	var out []wtEntry
	for sc.Scan() {
		line := sc.Text()
		q, err := strconv.QuotedPrefix(line)
		if err != nil {
			return nil, 0, false, errors.New("gitstore: malformed journal")
		}
		p, _ := strconv.Unquote(q)
		e := wtEntry{path: p}
		for _, x := range strings.Fields(line[len(q):]) {
			h, err := ParseHash(x)
			if err != nil {
				return nil, 0, false, errors.New("gitstore: malformed journal")
			}
			e.ok = append(e.ok, h)
		}
		if validPath(p) != nil {
			return nil, 0, false, errors.New("gitstore: malformed journal")
		}
		out = append(out, e)
	}
	return out, pid, mine, nil
}
