package wiki_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki"
)

// gitExecPath is where git keeps git-daemon and git-http-backend.
func gitExecPath(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("git", "--exec-path").Output()
	if err != nil {
		t.Skipf("git is not installed: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// startDaemon serves the bare repositories under base with `git daemon` on
// a free loopback port, push enabled, and returns the URL prefix
// ("git://127.0.0.1:PORT/") and a function that kills the daemon.
func startDaemon(t *testing.T, base string) (string, func()) {
	t.Helper()
	daemon := filepath.Join(gitExecPath(t), "git-daemon")
	if _, err := os.Stat(daemon); err != nil {
		t.Skip("git daemon is not installed here (git-daemon missing from git --exec-path); skipping the loopback git:// tests")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	// The git-daemon program itself, not `git daemon`, which would run it as
	// a child that outlives a kill of the parent.
	cmd := exec.Command(daemon, "--export-all", "--enable=receive-pack", "--reuseaddr",
		"--base-path="+base, fmt.Sprintf("--port=%d", port), "--listen=127.0.0.1", base)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	kill := func() { cmd.Process.Kill(); cmd.Wait() }
	t.Cleanup(kill)
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	for deadline := time.Now().Add(5 * time.Second); ; {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("git daemon did not start on %s", addr)
		}
		time.Sleep(10 * time.Millisecond)
	}
	return "git://" + addr + "/", kill
}

// startHTTP serves the bare repositories under base with git http-backend
// behind net/http/cgi on loopback; wrap (optional) sits in front of it to
// check credentials or inject faults.
func startHTTP(t *testing.T, base string, wrap func(http.Handler) http.Handler) string {
	t.Helper()
	backend := filepath.Join(gitExecPath(t), "git-http-backend")
	if _, err := os.Stat(backend); err != nil {
		t.Skip("git http-backend is not installed here; skipping the loopback http tests")
	}
	var h http.Handler = &cgi.Handler{
		Path: backend,
		Env:  []string{"GIT_PROJECT_ROOT=" + base, "GIT_HTTP_EXPORT_ALL=1", "GIT_CONFIG_NOSYSTEM=1"},
	}
	if wrap != nil {
		h = wrap(h)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}

// hostRepo makes a bare repository base/kb.git holding a fresh space
// (empty when seed is false) and returns base and the bare path.
func hostRepo(t *testing.T, seed bool) (base, bare string) {
	t.Helper()
	base = t.TempDir()
	bare = filepath.Join(base, "kb.git")
	git(t, base, "init", "--bare", "-b", "main", bare)
	git(t, bare, "config", "http.receivepack", "true")
	if seed {
		s, dir := newSpace(t)
		s.Close()
		git(t, dir, "push", bare, "main")
	}
	return base, bare
}

// replica clones the host repository (by path, then points origin at url)
// and opens its space: one pt process's own clone.
func replica(t *testing.T, bare, url string) (*wiki.Space, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "clone")
	git(t, filepath.Dir(dir), "clone", "-q", bare, dir)
	git(t, dir, "remote", "set-url", "origin", url)
	s, err := wiki.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	s.SetClock(wiki.SteppingClock(t0.Add(time.Hour), time.Second))
	t.Cleanup(func() { s.Close() })
	return s, dir
}

// ingest writes one page as an ingest batch and returns its batch id.
func ingest(t *testing.T, s *wiki.Space, title, topic string) string {
	t.Helper()
	res, err := s.Apply(context.Background(), wiki.Batch{Kind: wiki.KindIngest, Title: title, ApprovedBy: "dana"},
		func(ctx context.Context, tx *wiki.Tx) error {
			_, err := tx.Put(ctx, "pages/"+content.Slug(title)+".md", page(title, topic), wiki.RolePage)
			return err
		})
	if err != nil {
		t.Fatal(err)
	}
	return res.Batch
}

// personCommit is a person's plain git commit on the host: clone, write
// files, commit, push (with git, as anyone would).
func personCommit(t *testing.T, bare, msg string, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "person")
	git(t, filepath.Dir(dir), "clone", "-q", bare, dir)
	for p, data := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		if data == "" {
			git(t, dir, "rm", "-q", p)
			continue
		}
		if err := os.WriteFile(full, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		git(t, dir, "add", p)
	}
	git(t, dir, "commit", "-q", "-m", msg)
	// Replicas may push in between, as on a real host: pull and try again.
	for try := 0; ; try++ {
		cmd := exec.Command("git", "push", "-q", "origin", "main")
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err == nil {
			break
		}
		if try == 20 {
			t.Fatalf("person's push: %v\n%s", err, out)
		}
		git(t, dir, "pull", "-q", "--rebase", "origin", "main")
	}
	return git(t, dir, "rev-parse", "HEAD")
}

// batchIDs lists the Batch-Id trailers on a branch, oldest first.
func batchIDs(t *testing.T, dir, rev string) []string {
	t.Helper()
	var ids []string
	for _, line := range strings.Split(git(t, dir, "log", "--reverse", "--format=%(trailers:key=Batch-Id,valueonly)", rev), "\n") {
		if line = strings.TrimSpace(line); line != "" {
			ids = append(ids, line)
		}
	}
	return ids
}

func head(t *testing.T, s *wiki.Space) string {
	t.Helper()
	h, err := s.Head(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return string(h)
}

// fullLog returns the whole batch log at rev: log.md and the monthly
// archives under log/ that it rolls over into.
func fullLog(t *testing.T, dir, rev string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(git(t, dir, "show", rev+":log.md"))
	for _, f := range strings.Fields(git(t, dir, "ls-tree", "--name-only", rev, "log/")) {
		b.WriteString("\n" + git(t, dir, "show", rev+":"+f))
	}
	return b.String()
}
