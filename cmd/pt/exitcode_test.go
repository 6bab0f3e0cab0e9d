package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestExitCodes runs pt in process against a real space and checks each
// failure's exit code (2 for how pt was called, 1 otherwise), that stderr is
// one line starting "pt: " and that stdout is empty and HEAD unchanged.
func TestExitCodes(t *testing.T) {
	t.Setenv("GIT_AUTHOR_NAME", "dana")
	t.Setenv("HOME", t.TempDir())
	dir := t.TempDir()
	kb := filepath.Join(dir, "kb")
	if code := run(context.Background(), []string{"init", kb}, strings.NewReader(""), &bytes.Buffer{}, &bytes.Buffer{}); code != 0 {
		t.Fatalf("init: exit %d", code)
	}
	notes := filepath.Join(dir, "notes.md")
	if err := os.WriteFile(notes, []byte("We chose Postgres for the ledger.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	head := gitOut(t, kb, "rev-parse", "HEAD")
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"query-kb", "--budget", "10", "anything"}, 2, "budget too small"},
		{[]string{"query-kb", "--k", "-1", "anything"}, 2, "must not be negative"},
		{[]string{"query-kb", "--budget", "0", "anything"}, 2, "budget too small"},
		{[]string{"query-kb", "--k", "0", "anything"}, 2, "at least one excerpt"},
		{[]string{"ingest", notes, "--title", "T", "--approved-by", "dana", "--kind", "bogus"}, 2, "unknown source kind"},
		{[]string{"ingest", notes, "--title", "T"}, 2, "--approved-by is required"},
		{[]string{"ingest", filepath.Join(dir, "missing.md"), "--title", "T", "--approved-by", "dana"}, 1, "no such file"},
		{[]string{"show", "pages/nope.md"}, 1, "pages/nope.md"},
		{[]string{"show", "index.md", "--rev", "HEAD~100"}, 1, "not found"},
		{[]string{"log", "--n", "-1"}, 2, "must not be negative"},
		{[]string{"token", "bogus"}, 2, `unknown token command "bogus"`},
		{[]string{"token"}, 2, "token needs a command"},
		{[]string{"mcp", "bogus"}, 2, `unknown mcp command "bogus"`},
		{[]string{"index"}, 2, "index needs a command"},
		{[]string{"cron", "--reap", "99 99 99 99 99"}, 2, "--reap"},
		{[]string{"ingest", notes, "--title", "T", "--approved-by", "ghp_abcdefghijklmnopqrstuvwxyz0123456789"}, 1, "approved_by: refusing secret"},
		{[]string{"import", "", "--approved-by", "dana"}, 1, "name the directory"},
		{[]string{"--kb", filepath.Join(kb, ".git"), "log"}, 1, "work tree"},
	} {
		var out, errb bytes.Buffer
		code := run(context.Background(), append([]string{"--kb", kb}, tc.args...), strings.NewReader(""), &out, &errb)
		msg := errb.String()
		if code != tc.code || !strings.HasPrefix(msg, "pt: ") || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, tc.msg) || out.Len() != 0 {
			t.Errorf("pt %s: exit %d, stdout %q, stderr %q; want exit %d and one line containing %q", strings.Join(tc.args, " "), code, out.String(), msg, tc.code, tc.msg)
		}
	}
	if got := gitOut(t, kb, "rev-parse", "HEAD"); got != head {
		t.Errorf("HEAD moved from %s to %s", head, got)
	}
	if got := gitOut(t, kb, "status", "--porcelain"); got != "" {
		t.Errorf("git status --porcelain = %q, want clean", got)
	}
}

func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}
