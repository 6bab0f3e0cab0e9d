package lint_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ptwiki/pt/lint"
	"github.com/ptwiki/pt/wiki"
)

// syncOpts is how pt syncs: lint's findings.json merged, not a conflict.
var syncOpts = wiki.SyncOptions{
	Merge:   map[string]wiki.MergeFunc{lint.FindingsPath: lint.MergeFindingsFiles},
	Retitle: map[string]wiki.RetitleFunc{lint.FindingsPath: lint.RetitleMerged},
}

// hostWithClones makes a host repository (bare) holding a new space, and
// returns it with a function that clones it and opens the clone's space.
func hostWithClones(t *testing.T) (bare string, clone func(name string) (string, *wiki.Space)) {
	t.Helper()
	seed, _ := newSpace(t)
	root := t.TempDir()
	bare = filepath.Join(root, "host.git")
	git(t, root, "init", "-q", "--bare", "-b", "main", bare)
	git(t, seed, "push", "-q", bare, "main")
	return bare, func(name string) (string, *wiki.Space) {
		t.Helper()
		dir := filepath.Join(root, name)
		git(t, root, "clone", "-q", bare, dir)
		s, err := wiki.Open(context.Background(), dir)
		if err != nil {
			t.Fatal(err)
		}
		s.SetClock(wiki.SteppingClock(t0.Add(time.Hour), time.Second))
		t.Cleanup(func() { s.Close() })
		return dir, s
	}
}

// writeFile writes a file of the work tree, as a person's editor would.
func writeFile(t *testing.T, dir, p, text string) {
	t.Helper()
	full := filepath.Join(dir, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Two replicas of one host repository both run lint before either syncs:
// the second to sync rebuilds its lint batch on the first's findings.json
// without a conflict, and the host's findings.json holds each finding
// once, first seen when the earlier run saw it and last seen when the
// later did, plus the finding only the second run saw.
func TestSyncMergesTwoReplicasFindings(t *testing.T) {
	ctx := context.Background()
	bare, clone := hostWithClones(t)
	commitPage := func(dir, p, body string) {
		writeFile(t, dir, p, body)
		git(t, dir, "add", p)
		git(t, dir, "commit", "-q", "-m", "add "+p)
	}
	dirA, a := clone("a")
	dirB, b := clone("b")
	commitPage(dirA, "pages/broken.md", "---\ntitle: Broken\n---\nSee [x](nope.md).\n")
	if _, err := a.Sync(ctx, syncOpts); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Sync(ctx, syncOpts); err != nil {
		t.Fatal(err)
	}
	commitPage(dirB, "pages/other.md", "---\ntitle: Other\n---\nSee [y](gone.md).\n")

	day1 := now
	day2 := now.Add(26 * time.Hour)
	if _, err := lint.Run(ctx, a, lint.Options{Now: day1}); err != nil {
		t.Fatal(err)
	}
	repB, err := lint.Run(ctx, b, lint.Options{Now: day2})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Sync(ctx, syncOpts); err != nil {
		t.Fatal(err)
	}
	res, err := b.Sync(ctx, syncOpts)
	if err != nil {
		t.Fatalf("second replica's sync: %v", err)
	}
	if len(res.Replayed) != 2 || res.Replayed[1].Batch != repB.Batch.Batch {
		t.Errorf("replayed %+v, want the person's commit and lint batch %s", res.Replayed, repB.Batch.Batch)
	}

	var file struct{ Findings []lint.Finding }
	if err := json.Unmarshal([]byte(git(t, bare, "show", "main:findings.json")), &file); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range file.Findings {
		got[f.Check+" "+f.Path] = f.Status + " " + f.FirstSeen.Format(time.RFC3339) + " " + f.LastSeen.Format(time.RFC3339)
	}
	d1, d2 := day1.Format(time.RFC3339), day2.Format(time.RFC3339)
	want := map[string]string{
		lint.CheckCrossref + " pages/broken.md": "open " + d1 + " " + d2,
		lint.CheckOrphan + " pages/broken.md":   "open " + d1 + " " + d2,
		lint.CheckCrossref + " pages/other.md":  "open " + d2 + " " + d2,
		lint.CheckOrphan + " pages/other.md":    "open " + d2 + " " + d2,
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: %q, want %q", k, got[k], w)
		}
	}
	if len(file.Findings) != len(want) {
		t.Errorf("findings.json has %d rows, want %d:\n%v", len(file.Findings), len(want), got)
	}
	// The rebuilt lint batch says what it now holds: four open findings,
	// two of them new against the host's file (b's own run counted four).
	const subject = "lint: 4 open findings (2 new, 0 resolved)"
	if got := strings.TrimSpace(git(t, bare, "log", "-1", "--format=%s", "main")); got != subject {
		t.Errorf("rebuilt lint batch's subject %q, want %q", got, subject)
	}
	if logText := git(t, bare, "show", "main:log.md"); !strings.Contains(logText, strings.TrimPrefix(subject, "lint: ")) {
		t.Errorf("log.md lacks the rebuilt batch's counts:\n%s", logText)
	}
	if h := strings.TrimSpace(git(t, dirB, "rev-parse", "HEAD")); h != strings.TrimSpace(git(t, bare, "rev-parse", "main")) {
		t.Error("replica b not at the host's head")
	}

	// The next lint on the merged branch agrees with the merged file: it
	// has nothing to commit on day 2.
	rep, err := lint.Run(ctx, b, lint.Options{Now: day2})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Batch != nil {
		t.Errorf("lint after the merge committed %s: the merged findings.json was not what lint writes", rep.Batch.Commit)
	}
}

// Two replicas that both caught the spokes up with a page a person added
// (each in a lint batch with no new findings) push one such batch: the
// second to sync drops its own as already applied upstream.
func TestSyncDropsASecondCatchUpLint(t *testing.T) {
	ctx := context.Background()
	bare, clone := hostWithClones(t)
	dirA, a := clone("a")
	_, b := clone("b")
	writeFile(t, dirA, "pages/p.md", "---\ntitle: P\ntopics: [ops]\nsummary: p\n---\nSee [the ops topic](../topics/ops.md).\n")
	git(t, dirA, "add", "-A")
	git(t, dirA, "commit", "-q", "-m", "a page by hand")
	for _, s := range []*wiki.Space{a, b} {
		if _, err := s.Sync(ctx, syncOpts); err != nil {
			t.Fatal(err)
		}
	}
	for i, s := range []*wiki.Space{a, b} {
		rep, err := lint.Run(ctx, s, lint.Options{Now: now.Add(time.Duration(i) * time.Minute)})
		if err != nil || rep.Batch == nil {
			t.Fatalf("replica %d's lint: %v %+v", i, err, rep)
		}
	}
	if _, err := a.Sync(ctx, syncOpts); err != nil {
		t.Fatal(err)
	}
	res, err := b.Sync(ctx, syncOpts)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Dropped) != 1 || res.Pushed != 0 {
		t.Errorf("second replica's sync: dropped %+v, pushed %d; want its catch-up batch dropped", res.Dropped, res.Pushed)
	}
	if n := strings.Count(git(t, bare, "log", "--format=%s", "main"), "spokes caught up"); n != 1 {
		t.Errorf("the host holds %d catch-up lint batches, want 1", n)
	}
}
