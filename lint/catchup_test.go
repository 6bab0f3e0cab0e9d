package lint_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/ptwiki/pt/lint"
	"github.com/ptwiki/pt/wiki"
)

// The lint batch is a batch like any other: it also lists in their spokes
// the pages people added in git, and drops those they deleted. Its
// findings describe the space as it leaves it: no orphan for a page it
// lists, no broken link for a spoke line it removes.
func TestLintChecksTheSpaceAsItsBatchLeavesIt(t *testing.T) {
	ctx := context.Background()
	dir, s := newSpace(t)
	write := func(p, text string) { t.Helper(); writeFile(t, dir, p, text) }
	write("pages/old.md", "---\ntitle: Old\ntopics: [storage]\n---\nOld notes.\n")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "old page")
	if _, err := lint.Run(ctx, s, lint.Options{Now: now}); err != nil { // lists pages/old.md
		t.Fatal(err)
	}
	if !strings.Contains(git(t, dir, "show", "HEAD:topics/storage.md"), "pages/old.md") {
		t.Fatal("the first lint batch did not list the page added by hand")
	}
	git(t, dir, "rm", "-q", "pages/old.md")
	write("pages/guide.md", "---\ntitle: Guide\ntopics: [storage]\n---\nA guide nobody links to yet.\n")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "replace the page by hand")

	rep, err := lint.Run(ctx, s, lint.Options{Now: now.Add(24 * 3600e9)})
	if err != nil {
		t.Fatal(err)
	}
	spoke := git(t, dir, "show", "HEAD:topics/storage.md")
	if !strings.Contains(spoke, "pages/guide.md") || strings.Contains(spoke, "pages/old.md") {
		t.Fatalf("the lint batch did not catch the spoke up:\n%s", spoke)
	}
	if rep.Batch == nil {
		t.Fatal("the lint run committed nothing")
	}
	if subject := git(t, dir, "log", "-1", "--format=%s"); !strings.Contains(subject, "spokes caught up") {
		t.Errorf("the lint batch does not say it caught the spokes up: %s", subject)
	}
	if line := rep.Summary(); !rep.CaughtUp || !strings.Contains(line, "spokes caught up") {
		t.Errorf("the report does not say it caught the spokes up: %q", line)
	}
	var file struct{ Findings []lint.Finding }
	if strings.TrimSpace(git(t, dir, "ls-tree", "--name-only", "HEAD", lint.FindingsPath)) != "" {
		if err := json.Unmarshal([]byte(git(t, dir, "show", "HEAD:"+lint.FindingsPath)), &file); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range file.Findings {
		if f.Open() && (f.Path == "pages/guide.md" || strings.HasPrefix(f.Path, "topics/")) {
			t.Errorf("the batch records a finding its own commit fixes: %s %s:%d %s", f.Check, f.Path, f.Line, f.Message)
		}
	}
	assertNoRecommit(t, ctx, dir, s, now.Add(24*3600e9))
}

// A page marked stale may empty the spoke another page links to: the
// checks see that spoke gone, as the batch leaves it, so the lint after
// has nothing new to commit.
func TestLintChecksSpokesAfterMarkingStale(t *testing.T) {
	ctx := context.Background()
	dir, s := newSpace(t)
	write := func(p, text string) { t.Helper(); writeFile(t, dir, p, text) }
	write("sources/s.md", "---\ntitle: S\nkind: source\n---\nv1\n")
	blob := strings.TrimSpace(git(t, dir, "hash-object", "sources/s.md"))
	write("summaries/s.md", "---\ntitle: Sum\nkind: source_summary\ntopics: [solo]\nsummary: x\nauthor: {kind: agent, name: bot}\nprovenance:\n  derived_from:\n    - {path: sources/s.md, revision: "+blob+"}\n---\nsummary\n")
	write("pages/h.md", "---\ntitle: H\ntopics: [other]\nsummary: h\n---\nSee [solo](../topics/solo.md).\n")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "pages")
	if _, err := lint.Run(ctx, s, lint.Options{Now: now}); err != nil {
		t.Fatal(err)
	}
	write("sources/s.md", "---\ntitle: S\nkind: source\n---\nv2\n")
	git(t, dir, "commit", "-q", "-am", "edit source")
	if rep := assertSettled(t, ctx, dir, s, "pages/h.md"); len(rep.MarkedStale) != 1 {
		t.Errorf("marked stale %v, want summaries/s.md", rep.MarkedStale)
	}
}

// The checks see the space as the batch leaves it in two more cases: a
// page marked stale keeps the batch from creating the spoke the catch-up
// alone would create, and a spoke the batch deletes empties its folder.
func TestLintChecksWhatTheBatchLeavesOnly(t *testing.T) {
	ctx := context.Background()
	t.Run("spoke never created", func(t *testing.T) {
		dir, s := newSpace(t)
		write := func(p, text string) { t.Helper(); writeFile(t, dir, p, text) }
		write("pages/h.md", "---\ntitle: H\ntopics: [other]\nsummary: h\n---\nSee [solo](../topics/solo.md).\n")
		write("sources/s.md", "---\ntitle: S\nkind: source\n---\nv1\n")
		git(t, dir, "add", "-A")
		git(t, dir, "commit", "-q", "-m", "pages")
		if _, err := lint.Run(ctx, s, lint.Options{Now: now}); err != nil {
			t.Fatal(err)
		}
		blob := strings.TrimSpace(git(t, dir, "hash-object", "sources/s.md"))
		write("sources/s.md", "---\ntitle: S\nkind: source\n---\nv2\n")
		write("summaries/s.md", "---\ntitle: Sum\nkind: source_summary\ntopics: [solo]\nsummary: x\nauthor: {kind: agent, name: bot}\nprovenance:\n  derived_from:\n    - {path: sources/s.md, revision: "+blob+"}\n---\nsummary\n")
		git(t, dir, "add", "-A")
		git(t, dir, "commit", "-q", "-m", "a summary pinned to the old source")
		if rep := assertSettled(t, ctx, dir, s, "pages/h.md"); rep.CaughtUp {
			t.Error("the report says the batch caught spokes up, but it writes none")
		}
	})
	t.Run("folder emptied", func(t *testing.T) {
		dir, s := newSpace(t)
		write := func(p, text string) { t.Helper(); writeFile(t, dir, p, text) }
		write("pages/a.md", "---\ntitle: A\ntopics: [solo]\nsummary: a\n---\nA.\n")
		write("pages/h.md", "---\ntitle: H\nsummary: h\n---\nSee [the topics](../topics/) and [a](a.md).\n")
		git(t, dir, "add", "-A")
		git(t, dir, "commit", "-q", "-m", "pages")
		if _, err := lint.Run(ctx, s, lint.Options{Now: now}); err != nil {
			t.Fatal(err)
		}
		write("pages/a.md", "---\ntitle: A\nsummary: a\n---\nA.\n")
		git(t, dir, "commit", "-q", "-am", "a leaves its topic")
		assertSettled(t, ctx, dir, s, "pages/h.md")
	})
}

// assertSettled runs lint twice at the same time: the first run reports a
// broken link from page (the batch leaves its target gone), and the second
// finds nothing new to commit.
func assertSettled(t *testing.T, ctx context.Context, dir string, s *wiki.Space, page string) *lint.Report {
	t.Helper()
	later := now.Add(48 * 3600e9)
	rep, err := lint.Run(ctx, s, lint.Options{Now: later})
	if err != nil {
		t.Fatal(err)
	}
	broken := false
	for _, f := range rep.Open() {
		broken = broken || f.Check == lint.CheckCrossref && f.Path == page
	}
	if !broken {
		t.Errorf("the link from %s to what the batch removes is not reported; tree:\n%s", page, git(t, dir, "ls-tree", "-r", "--name-only", "HEAD"))
	}
	assertNoRecommit(t, ctx, dir, s, later)
	return rep
}

// assertNoRecommit runs lint again at when: a run right after a run has
// nothing new to commit, since the first checked what its batch left.
func assertNoRecommit(t *testing.T, ctx context.Context, dir string, s *wiki.Space, when time.Time) {
	t.Helper()
	again, err := lint.Run(ctx, s, lint.Options{Now: when})
	if err != nil {
		t.Fatal(err)
	}
	if again.Batch != nil {
		t.Errorf("a lint right after a lint committed: %s", git(t, dir, "log", "-1", "--format=%s%n%b"))
	}
}

// A hub that is itself marked stale (a person made it an agent's page
// derived from a source) is checked as the batch writes it: stale, and
// listing only the topics left.
func TestLintChecksAHubMarkedStale(t *testing.T) {
	ctx := context.Background()
	dir, s := newSpace(t)
	write := func(p, text string) { t.Helper(); writeFile(t, dir, p, text) }
	write("pages/a.md", "---\ntitle: A\ntopics: [alpha]\nsummary: a\n---\nx\n")
	write("pages/b.md", "---\ntitle: B\ntopics: [beta]\nsummary: b\n---\nx\n")
	write("sources/s.md", "---\ntitle: S\nkind: source\n---\nv1\n")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "pages")
	if _, err := lint.Run(ctx, s, lint.Options{Now: now}); err != nil {
		t.Fatal(err)
	}
	blob := strings.TrimSpace(git(t, dir, "hash-object", "sources/s.md"))
	hub := strings.Replace(git(t, dir, "show", "HEAD:index.md"), "---\n", "---\nauthor: {kind: agent, name: bot}\nprovenance:\n  derived_from:\n    - {path: sources/s.md, revision: "+blob+"}\n", 1)
	write("index.md", hub)
	git(t, dir, "commit", "-q", "-am", "the hub is derived from a source")
	write("sources/s.md", "---\ntitle: S\nkind: source\n---\nv2\n")
	git(t, dir, "rm", "-q", "pages/a.md")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "the source changes, alpha's only page goes")
	later := now.Add(72 * 3600e9)
	rep, err := lint.Run(ctx, s, lint.Options{Now: later})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.MarkedStale) != 1 || rep.MarkedStale[0] != "index.md" {
		t.Fatalf("marked stale %v, want the hub", rep.MarkedStale)
	}
	for _, f := range rep.Open() {
		if f.Check == lint.CheckCrossref && f.Path == "index.md" {
			t.Errorf("a link the committed hub no longer has is reported: %s", f.Message)
		}
	}
	assertNoRecommit(t, ctx, dir, s, later)
}
