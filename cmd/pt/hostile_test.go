package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestHostileTextStaysInert: terminal escapes and a bell in a source never
// reach what pt generates (summary, spoke, hub, log) or what it prints
// (topics, query-kb, show, log), and a title written as a link, emphasis
// or HTML is escaped in log.md as in the spokes.
func TestHostileTextStaysInert(t *testing.T) {
	t.Setenv("GIT_AUTHOR_NAME", "dana")
	t.Setenv("HOME", t.TempDir())
	dir := t.TempDir()
	kb := filepath.Join(dir, "kb")
	if code, _, stderr := ptRun(t, "", "init", kb); code != 0 {
		t.Fatalf("init: %s", stderr)
	}
	src := filepath.Join(dir, "esc.md")
	body := "# Replay notes\n\nThe ledger \x1b[31mreplay\x1b[0m worker rings \x07 the bell when the queue stalls.\n\n" +
		"Replays of the ledger queue set the window title \x1b]0;pwned\x07 and carry idempotency keys \u009b2J.\n"
	if err := os.WriteFile(src, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	title := "[click](javascript:alert(1)) *bold* <script>alert(1)</script> <img src=x onerror=alert(1)>"
	if code, _, stderr := ptRun(t, "", "--kb", kb, "ingest", src, "--title", title, "--slug", "replay", "--approved-by", "dana", "--topic", "ledger"); code != 0 {
		t.Fatalf("ingest: %s", stderr)
	}
	for _, p := range []string{"summaries/replay.md", "topics/ledger.md", "index.md", "log.md"} {
		data, err := os.ReadFile(filepath.Join(kb, filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		if i := strings.IndexFunc(string(data), unsafeRune); i >= 0 {
			t.Errorf("%s holds control character %U: %q", p, []rune(string(data)[i:])[0], data)
		}
	}
	log, _ := os.ReadFile(filepath.Join(kb, "log.md"))
	for _, live := range []string{`\[click\]\(`, `\*bold\*`, `<script>`, `<img`} {
		// live: not preceded by the backslash that makes it text
		if regexp.MustCompile(`(^|[^\\])` + live).Match(log) {
			t.Errorf("log.md has %s live:\n%s", live, log)
		}
	}
	if !strings.Contains(string(log), `\[click\]`) || !strings.Contains(string(log), `\<script\>`) {
		t.Errorf("log.md does not show the title escaped:\n%s", log)
	}
	for _, args := range [][]string{
		{"topics", "ledger"},
		{"query-kb", "ledger replay worker bell idempotency keys"},
		{"show", "sources/replay.md"},
		{"log"},
	} {
		code, stdout, stderr := ptRun(t, "", append([]string{"--kb", kb}, args...)...)
		if code != 0 {
			t.Fatalf("pt %s: %s", args[0], stderr)
		}
		if i := strings.IndexFunc(stdout, unsafeRune); i >= 0 {
			t.Errorf("pt %s prints control character %U: %q", strings.Join(args, " "), []rune(stdout[i:])[0], stdout)
		}
	}
}
