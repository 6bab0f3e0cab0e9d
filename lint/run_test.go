package lint_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/lint"
	"github.com/ptwiki/pt/wiki"
)

func byID(fs []lint.Finding) map[string]lint.Finding {
	out := map[string]lint.Finding{}
	for _, f := range fs {
		out[f.ID] = f
	}
	return out
}

func commits(t *testing.T, dir string) string {
	return strings.TrimSpace(git(t, dir, "rev-list", "--count", "HEAD"))
}

// TestRunLifecycle follows findings through runs: the first run commits
// them as one lint batch (and marks the drifted agent page stale), an
// immediate second run commits nothing, a fix resolves one finding while
// the others keep their ids and first_seen although their lines moved, and
// a run past the retention drops the resolved row.
func TestRunLifecycle(t *testing.T) {
	ctx := context.Background()
	dir, s := newSpace(t)
	plant(t, dir, "testdata/planted.txtar")
	agentBefore := git(t, dir, "show", "HEAD:summaries/standup.md")
	humanBefore := git(t, dir, "show", "HEAD:summaries/standup-dana.md")

	rep, err := lint.Run(ctx, s, lint.Options{Now: now, Author: wiki.Author{Name: "dana", Kind: "human"}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Batch == nil || rep.Batch.Commit == "" {
		t.Fatalf("first run made no commit: %+v", rep)
	}
	msg := git(t, dir, "log", "-1", "--format=%B")
	if !strings.HasPrefix(msg, "lint: ") || !strings.Contains(msg, "Batch-Kind: lint") {
		t.Errorf("lint commit message:\n%s", msg)
	}
	git(t, dir, "fsck", "--strict")
	if st := git(t, dir, "status", "--porcelain"); st != "" {
		t.Errorf("work tree not in step with the lint commit:\n%s", st)
	}
	if log := git(t, dir, "show", "HEAD:log.md"); !strings.Contains(log, "· lint · `"+rep.Batch.Batch+"`") {
		t.Errorf("log.md has no entry for the lint batch:\n%s", log)
	}
	committed := git(t, dir, "show", "HEAD:findings.json")
	var file struct{ Findings []lint.Finding }
	if err := json.Unmarshal([]byte(committed), &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Findings) != len(rep.Findings) || len(rep.Open()) != len(rep.Findings) || rep.Change.Opened != len(rep.Findings) {
		t.Errorf("committed %d rows, report %d (%d open, %d opened)", len(file.Findings), len(rep.Findings), len(rep.Open()), rep.Change.Opened)
	}

	// Stale on drift: the agent's summary is marked stale, frontmatter only;
	// the person's summary is left as it was.
	if want := []string{"summaries/standup.md"}; strings.Join(rep.MarkedStale, ",") != strings.Join(want, ",") {
		t.Errorf("marked stale %v, want %v", rep.MarkedStale, want)
	}
	agentAfter := git(t, dir, "show", "HEAD:summaries/standup.md")
	pg, err := content.Parse("summaries/standup.md", []byte(agentAfter))
	if err != nil {
		t.Fatal(err)
	}
	old, _ := content.Parse("summaries/standup.md", []byte(agentBefore))
	if pg.Meta.Status != content.StatusStale || !bytes.Equal(pg.Body, old.Body) {
		t.Errorf("agent summary after lint: status %q, body changed %v", pg.Meta.Status, !bytes.Equal(pg.Body, old.Body))
	}
	if got := git(t, dir, "show", "HEAD:summaries/standup-dana.md"); got != humanBefore {
		t.Errorf("lint rewrote a human-owned page:\n%s", got)
	}

	// A second run right after: nothing new, no commit.
	n := commits(t, dir)
	rep2, err := lint.Run(ctx, s, lint.Options{Now: now.Add(time.Minute)})
	if err != nil {
		t.Fatal(err)
	}
	if rep2.Batch != nil || commits(t, dir) != n {
		t.Fatalf("second run committed: %+v", rep2.Batch)
	}

	// A person removes the missing link (lines below it move up).
	guide := filepath.Join(dir, "pages", "guide.md")
	data, _ := os.ReadFile(guide)
	var kept []string
	for _, l := range strings.Split(string(data), "\n") {
		if !strings.Contains(l, "(missing.md)") {
			kept = append(kept, l)
		}
	}
	if err := os.WriteFile(guide, []byte(strings.Join(kept, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "commit", "-q", "-am", "guide: drop the dead link")
	later := now.Add(26 * time.Hour)
	rep3, err := lint.Run(ctx, s, lint.Options{Now: later})
	if err != nil {
		t.Fatal(err)
	}
	if rep3.Batch == nil || rep3.Change.Resolved != 1 || rep3.Change.Opened != 0 {
		t.Fatalf("after the fix: batch %v, change %+v", rep3.Batch != nil, rep3.Change)
	}
	first := byID(rep.Findings)
	for _, f := range rep3.Findings {
		prev, ok := first[f.ID]
		if !ok {
			t.Errorf("finding %s %s got a new id", f.Check, f.Target)
			continue
		}
		if !f.FirstSeen.Equal(prev.FirstSeen) {
			t.Errorf("%s %s: first_seen %v, was %v", f.Check, f.Target, f.FirstSeen, prev.FirstSeen)
		}
		switch {
		case f.Target == "missing.md":
			if f.Status != lint.StatusResolved || !f.ResolvedAt.Equal(later) {
				t.Errorf("fixed link: %+v", f)
			}
		case f.Status != lint.StatusOpen || !f.LastSeen.Equal(later):
			t.Errorf("open finding on a new day: %+v", f)
		case f.Path == "pages/guide.md" && f.Line != prev.Line-1:
			t.Errorf("%s moved from line %d to %d, want %d", f.Target, prev.Line, f.Line, prev.Line-1)
		}
	}
	if paths, _ := lint.OpenPaths(ctx, s, wiki.Rev(rep3.Batch.Commit)); !paths["pages/guide.md"] || paths["pages/notes.md"] {
		t.Errorf("OpenPaths = %v", paths)
	}

	// Past the retention the resolved row is dropped.
	rep4, err := lint.Run(ctx, s, lint.Options{Now: later.Add(31 * 24 * time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	if rep4.Change.Dropped != 1 || len(rep4.Findings) != len(rep3.Findings)-1 {
		t.Errorf("after retention: change %+v, %d rows (was %d)", rep4.Change, len(rep4.Findings), len(rep3.Findings))
	}
	git(t, dir, "fsck", "--strict")
}

// TestDryRun writes nothing, but reports what a run would commit.
func TestDryRun(t *testing.T) {
	ctx := context.Background()
	dir, s := newSpace(t)
	plant(t, dir, "testdata/planted.txtar")
	n := commits(t, dir)
	rep, err := lint.Run(ctx, s, lint.Options{Now: now, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if commits(t, dir) != n || rep.Batch != nil || !rep.DryRun {
		t.Errorf("dry run wrote: %+v", rep.Batch)
	}
	if len(rep.Open()) == 0 || len(rep.MarkedStale) != 1 {
		t.Errorf("dry run report: %d open, stale %v", len(rep.Open()), rep.MarkedStale)
	}
}

// TestFreshSpaceRun: linting a new space finds nothing and commits nothing.
func TestFreshSpaceRun(t *testing.T) {
	dir, s := newSpace(t)
	rep, err := lint.Run(context.Background(), s, lint.Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Findings) != 0 || rep.Batch != nil || commits(t, dir) != "1" {
		t.Errorf("fresh space: %+v", rep)
	}
}

// TestStaleOnDriftOff: kb.yaml can keep lint from marking pages stale.
func TestStaleOnDriftOff(t *testing.T) {
	ctx := context.Background()
	dir, s := newSpace(t)
	plant(t, dir, "testdata/planted.txtar")
	cfg := s.Config()
	off := false
	cfg.Lint.StaleOnDrift = &off
	if err := os.WriteFile(filepath.Join(dir, "kb.yaml"), cfg.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "commit", "-q", "-am", "kb: lint only reports")
	s2, err := wiki.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	s2.SetClock(wiki.SteppingClock(t0.Add(time.Hour), time.Second))
	defer s2.Close()
	rep, err := lint.Run(ctx, s2, lint.Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.MarkedStale) != 0 || strings.Contains(git(t, dir, "show", "HEAD:summaries/standup.md"), "stale") {
		t.Errorf("stale_on_drift: false still marked %v", rep.MarkedStale)
	}
}
