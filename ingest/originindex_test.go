package ingest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki"
)

// TestOriginIndexFollowsBatches checks that the origin index an ingest
// leaves is the one a rebuild at the new head gives, when each ingest
// carries it over its own commit and when a commit made with git lies
// between two ingests; and that a file ingested again is found through
// it and revised in place.
func TestOriginIndexFollowsBatches(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC)
	dir := t.TempDir()
	s, _, err := wiki.Init(ctx, dir, wiki.InitOptions{Name: "team", When: t0, Clock: wiki.SteppingClock(t0, time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	files := t.TempDir()
	ingestFile := func(name, title, body string) *wiki.Result {
		t.Helper()
		f := filepath.Join(files, name)
		if err := os.WriteFile(f, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		res, err := Ingest(ctx, s, Source{Title: title, File: f, Body: []byte(body), ApprovedBy: "dana",
			Author: wiki.Author{Name: "dana", Kind: content.AuthorHuman}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	saved := filepath.Join(s.StateDir(), originIndexFile)
	checkCurrent := func(when string) {
		t.Helper()
		head, err := s.Head(ctx)
		if err != nil {
			t.Fatal(err)
		}
		kept := readOrigins(saved)
		if kept.Commit != head {
			t.Fatalf("%s: index saved at %q, head is %q", when, kept.Commit, head)
		}
		if err := os.Remove(saved); err != nil {
			t.Fatal(err)
		}
		rebuilt, err := loadOrigins(ctx, s, head)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(rebuilt, kept.Origins); d != "" {
			t.Errorf("%s: kept index differs from a rebuild (-rebuilt +kept):\n%s", when, d)
		}
	}

	first := ingestFile("standup.md", "Standup", "# Standup\n\nWe chose the ledger queue.\n")
	checkCurrent("after the first ingest")

	page := "---\ntitle: Imported by hand\nkind: source\nprovenance:\n  origin: /elsewhere/imported.md\n---\nText.\n"
	if err := os.MkdirAll(filepath.Join(dir, "sources"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sources", "imported.md"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"add", "sources/imported.md"}, {"commit", "-q", "-m", "add a source by hand"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=p", "GIT_AUTHOR_EMAIL=p@example.com", "GIT_COMMITTER_NAME=p", "GIT_COMMITTER_EMAIL=p@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	ingestFile("retro.md", "Retro", "# Retro\n\nThe queue held.\n")
	checkCurrent("after a commit made with git and another ingest")

	again := ingestFile("standup.md", "Standup, revised", "# Standup\n\nWe chose the ledger queue, and why.\n")
	if len(again.Revised) != 1 || again.Revised[0].Path != sourcePath(first) {
		t.Errorf("the file ingested again revised %+v, want its page %s", again.Revised, sourcePath(first))
	}
	checkCurrent("after a revision")
}

// sourcePath is the source page a batch wrote.
func sourcePath(res *wiki.Result) string {
	for _, w := range res.Pages {
		if filepath.Dir(w.Path) == "sources" {
			return w.Path
		}
	}
	return ""
}
