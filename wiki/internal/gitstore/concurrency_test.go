package gitstore

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// checkLinear asserts that history is a single chain of n commits, each with
// one parent except the root, and that git agrees.
func checkLinear(t *testing.T, s *Store, n int) {
	t.Helper()
	ctx := context.Background()
	head, _ := s.Head(ctx)
	log, err := s.Log(ctx, head, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(log) != n {
		t.Fatalf("%d commits, want %d", len(log), n)
	}
	for i, c := range log {
		if want := min(1, n-1-i); len(c.Parents) != want {
			t.Fatalf("commit %s has %d parents", c.Hash, len(c.Parents))
		}
	}
	if got := git(t, repoDir(s), "rev-list", "--count", "--merges", "HEAD"); got != "0" {
		t.Fatalf("merges: %s", got)
	}
	if got := git(t, repoDir(s), "rev-list", "--count", "HEAD"); got != fmt.Sprint(n) {
		t.Fatalf("git counts %s commits, want %d", got, n)
	}
	fsck(t, repoDir(s))
}

func TestConcurrentGoroutines(t *testing.T) {
	ctx := context.Background()
	s := newRepo(t)
	commit(t, s, "base", "kb.yaml=x")
	const n = 8
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			unlock, err := s.Lock(ctx)
			if err != nil {
				errs <- err
				return
			}
			defer unlock()
			head, err := s.Head(ctx)
			if err != nil {
				errs <- err
				return
			}
			res, err := s.Commit(ctx, CommitRequest{Parent: head, Changes: files(fmt.Sprintf("g/%d.md=%d", i, i)), Message: fmt.Sprint("g", i), Author: sig(i)})
			if err == nil {
				err = res.WorktreeErr
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	checkLinear(t, s, n+1)
	if st := git(t, s.WorkDir(), "status", "--porcelain", "--untracked-files=all"); st != "" {
		t.Errorf("status:\n%s", st)
	}
	// Commit without Lock, racing: every call either lands or is ErrStale.
	head, _ := s.Head(ctx)
	var landed sync.Map
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := s.Commit(ctx, CommitRequest{Parent: head, Changes: files(fmt.Sprintf("r/%d.md=%d", i, i)), Message: fmt.Sprint("r", i), Author: sig(i)})
			if err == nil {
				landed.Store(res.Hash, true)
			} else if !strings.Contains(err.Error(), "branch moved") {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	count := 0
	landed.Range(func(any, any) bool { count++; return true })
	if count != 1 {
		t.Fatalf("%d racing commits on one parent landed, want exactly 1", count)
	}
	checkLinear(t, s, n+2)
}

func TestLockHonoursContext(t *testing.T) {
	s := newRepo(t)
	unlock, err := s.Lock(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := s.Lock(ctx); err == nil {
		t.Fatal("second Lock succeeded while the first is held")
	}
	// A second Store (as another process would) waits on the flock.
	s2, err := Open(context.Background(), s.WorkDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	ctx2, cancel2 := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel2()
	if _, err := s2.Lock(ctx2); err == nil {
		t.Fatal("flock taken twice")
	}
	// Commit under the caller's own Lock does not deadlock.
	commit(t, s, "under lock", "a.md=1")
}

func TestConcurrentProcesses(t *testing.T) {
	s := newRepo(t)
	commit(t, s, "base", "kb.yaml=x")
	const n = 8
	cmds := make([]*strings.Builder, n)
	var wg sync.WaitGroup
	for i := range n {
		cmd := helper(t, "commit-one", s.WorkDir(), fmt.Sprint("p", i))
		cmds[i] = &strings.Builder{}
		cmd.Stderr = cmds[i]
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := cmd.Wait(); err != nil {
				t.Errorf("helper %d: %v\n%s", i, err, cmds[i])
			}
		}()
	}
	wg.Wait()
	checkLinear(t, s, n+1)
	for i := range n {
		if got := git(t, s.WorkDir(), "show", fmt.Sprintf("HEAD:procs/p%d.md", i)); got != fmt.Sprint("p", i) {
			t.Errorf("procs/p%d.md = %q", i, got)
		}
	}
	if st := git(t, s.WorkDir(), "status", "--porcelain", "--untracked-files=all"); st != "" {
		t.Errorf("status:\n%s", st)
	}
}

func TestCrashAtRandomPoints(t *testing.T) {
	if testing.Short() {
		t.Skip("kills helper processes for several seconds")
	}
	ctx := context.Background()
	s := newRepo(t)
	commit(t, s, "base", "kb.yaml=x")
	dir := s.WorkDir()
	rng := rand.New(rand.NewPCG(1, uint64(time.Now().UnixNano())))
	for round := range 12 {
		cmd := helper(t, "commit-loop", dir, fmt.Sprint("c", round))
		var stderr strings.Builder
		cmd.Stderr = &stderr
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Once it has opened (finishing what the last one left) and landed
		// a commit, let it run into the next ones and kill it at a random
		// point.
		first := make(chan bool, 1)
		go func() {
			sc := bufio.NewScanner(stdout)
			first <- sc.Scan()
			for sc.Scan() {
			}
		}()
		select {
		case ok := <-first:
			if !ok {
				cmd.Wait()
				t.Fatalf("round %d: helper failed:\n%s", round, stderr.String())
			}
		case <-time.After(60 * time.Second):
			t.Fatalf("round %d: helper made no commit in 60s", round)
		}
		time.Sleep(time.Duration(rng.IntN(60_000)) * time.Microsecond)
		cmd.Process.Signal(syscall.SIGKILL)
		err = cmd.Wait()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
			t.Fatalf("round %d: helper exited on its own: %v\n%s", round, err, stderr.String())
		}
		// A person commits before any pt command has run again. git must
		// either refuse (pt's index.lock is still there) or commit a tree
		// that keeps everything the branch holds: a crash between the
		// branch move and the index update must not let git commit the
		// old index on top, undoing the batch.
		if _, err := gitErr(dir, "commit", "-q", "--allow-empty", "-m", fmt.Sprint("person after crash ", round)); err == nil {
			if d := git(t, dir, "diff", "--name-status", "HEAD^", "HEAD"); d != "" {
				t.Fatalf("round %d: a person's commit after the crash changed the tree:\n%s", round, d)
			}
		}
	}
	s2, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	h := commit(t, s2, "after the crashes", "after.md=ok")
	fsck(t, dir)
	if st := git(t, dir, "status", "--porcelain", "--untracked-files=all"); st != "" {
		t.Errorf("status after recovery:\n%s", st)
	}
	if _, err := os.Stat(filepath.Join(s2.GitDir(), "index.lock")); !os.IsNotExist(err) {
		t.Errorf("index.lock left: %v", err)
	}
	// Every reachable commit is whole: each file of each tree reads back.
	log, err := s2.Log(ctx, h, 0)
	if err != nil {
		t.Fatal(err)
	}
	files := 0
	for _, c := range log {
		entries, err := s2.List(ctx, c.Hash, "")
		if err != nil {
			t.Fatalf("commit %s: %v", c.Hash, err)
		}
		for _, e := range entries {
			if _, err := s2.ReadBlob(ctx, e.Blob); err != nil {
				t.Fatalf("commit %s %s: %v", c.Hash, e.Path, err)
			}
			files++
		}
	}
	t.Logf("%d commits survived 12 kills; %d file versions read back", len(log), files)
	if len(log) < 12+2 {
		t.Errorf("only %d commits after 12 helpers that each committed", len(log))
	}
}
