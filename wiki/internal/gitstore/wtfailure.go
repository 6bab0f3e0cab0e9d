package gitstore

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
	"time"
)

// ErrWorktreeIncomplete is wrapped by CommitResult.WorktreeErr (and by Open)
// when a batch is on the branch but a work-tree file could not be written:
// a full disk, an I/O error. The update stays journaled and git is held off
// (.git/index.lock) until a later Commit or Open finishes it.
var ErrWorktreeIncomplete = errors.New("the work tree is incomplete")

// writeFailure describes the paths syncFiles could not bring in step, nil
// when there are none. A person's edit left alone is not a failure.
func writeFailure(states []wtState) error {
	var first *wtState
	n := 0
	for i := range states {
		if states[i].err != nil {
			if first == nil {
				first = &states[i]
			}
			n++
		}
	}
	if first == nil {
		return nil
	}
	more := ""
	if n > 1 {
		more = fmt.Sprintf(" (and %d more paths)", n-1)
	}
	return fmt.Errorf("write %s%s: %w", first.path, more, describeOSError(first.err))
}

// describeOSError drops the temp-file path an OS error names (it means
// nothing to a reader) and says plainly when the disk is full.
func describeOSError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	if errors.Is(err, syscall.ENOSPC) {
		return fmt.Errorf("the disk is full: %w", err)
	}
	return err
}

// heldOffMarker is what pt writes into an index.lock it leaves in place. A
// git command's index.lock holds an index being written ("DIRC..."), so
// the marker tells pt's own lock from git's, and tells a person who opens
// the file why it is there.
const heldOffMarker = "pt: the work tree is behind the branch; run any pt command to finish it\n"

// holdOffGit leaves index.lock in place while the work tree lacks part of
// the branch's last batch, so that git refuses to commit (a commit would
// record the missing files as deleted) until pt finishes the journal. A
// lock a git command holds past indexLockWait is left to it.
func (s *Store) holdOffGit(deadPID int, since time.Time) {
	f, err := s.lockIndex(s.indexPath()+".lock", deadPID, since)
	if err != nil {
		return
	}
	f.WriteString(heldOffMarker)
	f.Close()
}

// releaseHeldOffIndex removes the index.lock at lockPath when holdOffGit
// left it, and reports whether it did.
func (s *Store) releaseHeldOffIndex(lockPath string) bool {
	data, err := os.ReadFile(lockPath)
	if err != nil || !bytes.Equal(data, []byte(heldOffMarker)) {
		return false
	}
	return os.Remove(lockPath) == nil
}
