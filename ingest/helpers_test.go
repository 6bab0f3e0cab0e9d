package ingest_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki"
)

var t0 = time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC)

var (
	dana  = wiki.Author{Name: "dana", Email: "dana@example.com", Kind: content.AuthorHuman}
	agent = wiki.Author{Name: "claude", Kind: content.AuthorAgent}
)

// git runs git in dir and returns its trimmed output, failing the test on
// error.
func git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	out, err := gitErr(dir, args...)
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return out
}

func gitErr(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=person", "GIT_AUTHOR_EMAIL=p@example.com", "GIT_COMMITTER_NAME=person", "GIT_COMMITTER_EMAIL=p@example.com")
	out, err := cmd.CombinedOutput()
	return strings.TrimSpace(string(out)), err
}

// newSpace makes a space in a fresh repository; kbYAML, when given, is
// committed as its kb.yaml and the space reopened to read it.
func newSpace(t testing.TB, kbYAML string) (*wiki.Space, string) {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	s, _, err := wiki.Init(ctx, dir, wiki.InitOptions{Name: "team", When: t0, Clock: wiki.SteppingClock(t0, time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	if kbYAML != "" {
		_, err := s.Apply(ctx, wiki.Batch{Kind: "config", Title: "configure", When: t0}, func(ctx context.Context, tx *wiki.Tx) error {
			_, err := tx.PutFile(ctx, content.ConfigFile, []byte(kbYAML), wiki.RoleConfig)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
		if s, err = wiki.Open(ctx, dir); err != nil {
			t.Fatal(err)
		}
		s.SetClock(wiki.SteppingClock(t0.Add(time.Minute), time.Second))
	}
	t.Cleanup(func() { s.Close() })
	return s, dir
}

// putPages commits pages (path → page) as one batch.
func putPages(t testing.TB, s *wiki.Space, pages map[string]*content.Page) {
	t.Helper()
	_, err := s.Apply(context.Background(), wiki.Batch{Kind: wiki.KindIngest, Title: "seed", ApprovedBy: "dana", When: t0}, func(ctx context.Context, tx *wiki.Tx) error {
		for p, pg := range pages {
			if _, err := tx.Put(ctx, p, pg, wiki.RolePage); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// repoState is what must not change when a write is refused.
type repoState struct{ head, status string }

func stateOf(t testing.TB, dir string) repoState {
	return repoState{head: git(t, dir, "rev-parse", "HEAD"), status: git(t, dir, "status", "--porcelain", "--untracked-files=all")}
}

func writeFile(t testing.TB, p string, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// fullLog returns the whole batch log at rev: log.md and the monthly
// archives under log/ that it rolls over into.
func fullLog(t testing.TB, dir, rev string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(git(t, dir, "show", rev+":log.md"))
	for _, f := range strings.Fields(git(t, dir, "ls-tree", "--name-only", rev, "log/")) {
		b.WriteString("\n" + git(t, dir, "show", rev+":"+f))
	}
	return b.String()
}
