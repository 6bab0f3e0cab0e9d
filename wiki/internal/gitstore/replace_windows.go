package gitstore

import (
	"errors"
	"io"
	"os"
	"time"

	"golang.org/x/sys/windows"
)

// replaceFile renames from to to, replacing to when it exists. Windows
// refuses to replace a file that another handle holds open (a pt process
// reading the ref, git, an editor, a virus scanner), and such holds last
// moments, so the rename is retried for up to two seconds, as Git for
// Windows does.
func replaceFile(from, to string) error {
	return whileHeldOpen(func() error { return os.Rename(from, to) })
}

// readReplaced reads a file that writers replace by renaming (a ref). It
// opens the file sharing delete access, so that its read never stops a pt
// writer's rename (os.Open does not share it, and a server reads its refs
// many times a second); while Windows carries out such a rename, opening
// fails with a sharing violation, and the read is retried like the rename.
func readReplaced(p string) ([]byte, error) {
	var data []byte
	err := whileHeldOpen(func() (err error) {
		data, err = readSharingDelete(p)
		return err
	})
	return data, err
}

// whileHeldOpen runs op until it succeeds, fails for another reason than a
// file held open elsewhere, or two seconds have passed.
func whileHeldOpen(op func() error) error {
	deadline := time.Now().Add(2 * time.Second)
	for delay := time.Millisecond; ; delay = min(2*delay, 100*time.Millisecond) {
		err := op()
		if err == nil || !heldOpen(err) || time.Now().After(deadline) {
			return err
		}
		time.Sleep(delay)
	}
}

func readSharingDelete(p string) ([]byte, error) {
	name, err := windows.UTF16PtrFromString(p)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: p, Err: err}
	}
	h, err := windows.CreateFile(name, windows.GENERIC_READ,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE,
		nil, windows.OPEN_EXISTING, windows.FILE_ATTRIBUTE_NORMAL, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: p, Err: err}
	}
	f := os.NewFile(uintptr(h), p)
	defer f.Close()
	return io.ReadAll(f)
}

// heldOpen reports whether err is Windows refusing a file another handle
// holds.
func heldOpen(err error) bool {
	return errors.Is(err, windows.ERROR_ACCESS_DENIED) || errors.Is(err, windows.ERROR_SHARING_VIOLATION) ||
		errors.Is(err, windows.ERROR_LOCK_VIOLATION)
}
