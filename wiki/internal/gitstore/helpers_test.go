package gitstore

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMain doubles as the helper process of the multi-process tests: the
// test binary re-executes itself with PT_GITSTORE_HELPER set.
func TestMain(m *testing.M) {
	if mode := os.Getenv("PT_GITSTORE_HELPER"); mode != "" {
		os.Exit(helperMain(mode))
	}
	code := m.Run()
	cleanupBenchRepos()
	os.Exit(code)
}

var testEnv = []string{
	"GIT_CONFIG_NOSYSTEM=1",
	"GIT_CONFIG_GLOBAL=/dev/null",
	"GIT_AUTHOR_NAME=Git User", "GIT_AUTHOR_EMAIL=git@example.com",
	"GIT_COMMITTER_NAME=Git User", "GIT_COMMITTER_EMAIL=git@example.com",
	"LC_ALL=C",
}

// git runs the real git command in dir and returns its trimmed stdout.
func git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	out, err := gitErr(dir, args...)
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

func gitErr(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), testEnv...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return string(out) + stderr.String(), err
	}
	return strings.TrimSpace(string(out)), nil
}

// fsck fails the test unless `git fsck --strict` is clean.
func fsck(t testing.TB, dir string) {
	t.Helper()
	cmd := exec.Command("git", "fsck", "--strict", "--no-dangling")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), testEnv...)
	out, err := cmd.CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "" {
		t.Fatalf("git fsck --strict: %v\n%s", err, out)
	}
}

func newRepo(t testing.TB) *Store {
	t.Helper()
	s, err := Init(context.Background(), t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

var epoch = time.Date(2026, 11, 29, 18, 0, 0, 0, time.FixedZone("CET", 3600))

func sig(i int) Signature {
	return Signature{Name: "pt test", Email: "pt@example.com", When: epoch.Add(time.Duration(i) * time.Minute)}
}

// files turns "path=content" pairs (and "-path" deletions) into changes.
func files(specs ...string) []Change {
	var out []Change
	for _, sp := range specs {
		if p, ok := strings.CutPrefix(sp, "-"); ok {
			out = append(out, Change{Path: p, Delete: true})
			continue
		}
		p, data, _ := strings.Cut(sp, "=")
		out = append(out, Change{Path: p, Data: []byte(data)})
	}
	return out
}

// commit commits changes on the current head and fails the test on error.
func commit(t testing.TB, s *Store, msg string, specs ...string) Hash {
	t.Helper()
	ctx := context.Background()
	head, err := s.Head(ctx)
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Commit(ctx, CommitRequest{Parent: head, Changes: files(specs...), Message: msg, Author: sig(len(msg))})
	if err != nil {
		t.Fatalf("commit %q: %v", msg, err)
	}
	if res.WorktreeErr != nil {
		t.Fatalf("commit %q: worktree: %v", msg, res.WorktreeErr)
	}
	return res.Hash
}

// repoDir is where git commands run: the work tree, else the git dir.
func repoDir(s *Store) string {
	if s.WorkDir() != "" {
		return s.WorkDir()
	}
	return s.GitDir()
}

func writeFile(t testing.TB, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func gitStdin(t testing.TB, dir, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), testEnv...)
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// helperMain is a pt writer in its own process: "commit-one" lands one
// batch through the write lock; "commit-loop" commits until it is killed.
func helperMain(mode string) int {
	ctx := context.Background()
	s, err := Open(ctx, os.Getenv("PT_REPO"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	id := os.Getenv("PT_ID")
	one := func(i int, changes []Change) error {
		unlock, err := s.Lock(ctx)
		if err != nil {
			return err
		}
		defer unlock()
		head, err := s.Head(ctx)
		if err != nil {
			return err
		}
		res, err := s.Commit(ctx, CommitRequest{Parent: head, Changes: changes, Message: fmt.Sprintf("%s %d", id, i), Author: sig(i)})
		if err == nil && res.WorktreeErr != nil {
			err = res.WorktreeErr
		}
		return err
	}
	switch mode {
	case "commit-one":
		if err := one(0, files("procs/"+id+".md="+id)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return 0
	case "commit-loop":
		for i := 0; ; i++ {
			ch := files(fmt.Sprintf("loop/%s/%d.md=%d", id, i, i), fmt.Sprintf("shared/counter.md=%s %d", id, i))
			if i >= 3 {
				ch = append(ch, Change{Path: fmt.Sprintf("loop/%s/%d.md", id, i-3), Delete: true})
			}
			if i%4 == 1 { // a batch big enough to be written as a pack
				for j := range packThreshold + 10 {
					ch = append(ch, Change{Path: fmt.Sprintf("big/%s/%d/%d.md", id, i, j), Data: []byte(fmt.Sprint(i, j))})
				}
			}
			if err := one(i, ch); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
			fmt.Println("committed", i)
		}
	}
	fmt.Fprintln(os.Stderr, "unknown helper mode", mode)
	return 2
}

// helper starts the test binary as a helper process.
func helper(t testing.TB, mode, repo, id string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "PT_GITSTORE_HELPER="+mode, "PT_REPO="+repo, "PT_ID="+id)
	cmd.Env = append(cmd.Env, testEnv...)
	return cmd
}

func gitStdinEnv(t testing.TB, dir, stdin string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), testEnv...), env...)
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// deadPID returns the pid of a process that has exited.
func deadPID(t testing.TB) int {
	t.Helper()
	// The test binary itself, running no test: a process that exits at
	// once on every platform.
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

func rewriteJournalPID(t testing.TB, s *Store, pid int) {
	t.Helper()
	data := readFile(t, s.journalPath())
	lines := strings.SplitN(data, "\n", 3)
	lines[1] = fmt.Sprintf("pid %d", pid)
	if err := os.WriteFile(s.journalPath(), []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
}
