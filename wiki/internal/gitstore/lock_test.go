package gitstore

import (
	"os"
	"path/filepath"
	"testing"
)

// The write lock's primitive on every platform (flock on Unix, LockFileEx on
// Windows): a second handle on the lock file cannot take it while the first
// holds it, and can once the first is closed.
func TestTryLockFileExcludesOtherHandles(t *testing.T) {
	p := filepath.Join(t.TempDir(), "write.lock")
	open := func() *os.File {
		f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	a, b := open(), open()
	defer b.Close()
	if held, err := tryLockFile(a); err != nil || !held {
		t.Fatalf("first handle: held %v, %v", held, err)
	}
	if held, err := tryLockFile(b); err != nil || held {
		t.Fatalf("second handle while the first holds the lock: held %v, %v", held, err)
	}
	a.Close()
	if held, err := tryLockFile(b); err != nil || !held {
		t.Fatalf("second handle after the first closed: held %v, %v", held, err)
	}
}

// processDead tells a process that has exited from a running one, which is
// how a crashed writer's journal is recognised.
func TestProcessDead(t *testing.T) {
	if processDead(os.Getpid()) {
		t.Error("this process reported dead")
	}
	if processDead(os.Getppid()) {
		t.Error("the parent process reported dead")
	}
	if pid := deadPID(t); !processDead(pid) {
		t.Errorf("exited process %d reported running", pid)
	}
}
