package lint_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/ptwiki/pt/lint"
	"github.com/ptwiki/pt/wiki"
)

// TestKeptFactsMatchReadPages: a run that reuses the facts kept by an
// earlier one reports exactly what a run that reads and parses every
// page reports: on the fixtures as planted, after pages are edited,
// renamed, copied and deleted in git (only the edited one is read again),
// and over a store that is not one.
func TestKeptFactsMatchReadPages(t *testing.T) {
	for _, fixture := range []string{"testdata/planted.txtar", "testdata/provenance_lines.txtar", "testdata/secrets.txtar"} {
		t.Run(strings.TrimSuffix(filepath.Base(fixture), ".txtar"), func(t *testing.T) {
			ctx := context.Background()
			dir, s := newSpace(t)
			plant(t, dir, fixture)
			compare := func(stage string) {
				t.Helper()
				ref, err := lint.Run(ctx, s, lint.WithoutFacts(lint.Options{Now: now, DryRun: true}))
				if err != nil {
					t.Fatal(err)
				}
				got, err := lint.Run(ctx, s, lint.Options{Now: now, DryRun: true})
				if err != nil {
					t.Fatal(err)
				}
				if len(ref.Findings) == 0 {
					t.Fatalf("%s: no findings to compare", stage)
				}
				if d := cmp.Diff(ref, got); d != "" {
					t.Errorf("%s: kept facts change the report (-read +kept):\n%s", stage, d)
				}
			}
			parsed := func(stage string, want int) {
				t.Helper()
				n, err := lint.Parsed(ctx, s)
				if err != nil {
					t.Fatal(err)
				}
				if n != want {
					t.Errorf("%s: %d pages read and parsed, want %d", stage, n, want)
				}
			}

			compare("first run") // reads every page and keeps their facts
			parsed("second run", 0)
			compare("second run")

			pages := strings.Fields(git(t, dir, "ls-files", "*.md"))
			if len(pages) < 3 {
				t.Fatalf("fixture has %d pages, want at least 3", len(pages))
			}
			edit := filepath.Join(dir, pages[0])
			data, err := os.ReadFile(edit)
			if err != nil {
				t.Fatal(err)
			}
			data = append(data, "\nSee [the gone page](gone-page.md) and [[Nowhere]].\n"...)
			if err := os.WriteFile(edit, data, 0o644); err != nil {
				t.Fatal(err)
			}
			copied, err := os.ReadFile(filepath.Join(dir, pages[1]))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, filepath.Dir(pages[1]), "copied.md"), copied, 0o644); err != nil {
				t.Fatal(err)
			}
			git(t, dir, "mv", pages[1], filepath.Dir(pages[1])+"/moved.md")
			git(t, dir, "rm", "-q", pages[2])
			git(t, dir, "add", "-A")
			git(t, dir, "commit", "-q", "-m", "pages: edit, move, copy, delete")
			parsed("after the edit", 1)
			compare("after the edit")

			if err := os.WriteFile(lint.FactsPath(s), []byte("not the facts of any page"), 0o644); err != nil {
				t.Fatal(err)
			}
			compare("over a broken store")
			parsed("after the broken store", 0)
		})
	}
}

// TestKeptFactsCommitTheSameBatch: a committing run with kept facts
// writes the batch a run that reads every page writes, commit for commit.
func TestKeptFactsCommitTheSameBatch(t *testing.T) {
	ctx := context.Background()
	// Each space is linted twice, a dry run then a committing one, so that
	// their clocks agree; only the second space keeps facts between them.
	run := func(keep bool) (*lint.Report, string) {
		dir, s := newSpace(t)
		plant(t, dir, "testdata/planted.txtar")
		opts := lint.Options{Now: now}
		if !keep {
			opts = lint.WithoutFacts(opts)
		}
		dry := opts
		dry.DryRun = true
		if _, err := lint.Run(ctx, s, dry); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(lint.FactsPath(s)); (err == nil) != keep {
			t.Fatalf("facts kept: %v, want %v", err == nil, keep)
		}
		rep, err := lint.Run(ctx, s, opts)
		if err != nil {
			t.Fatal(err)
		}
		msg := git(t, dir, "log", "-1", "--format=%B")
		msg = msg[:strings.Index(msg, "Batch-Id:")]
		var tree []string
		for _, l := range strings.Split(git(t, dir, "ls-tree", "-r", "HEAD"), "\n") {
			if !strings.HasSuffix(l, "\t"+wiki.LogPath) {
				tree = append(tree, l)
			}
		}
		return rep, msg + strings.Join(tree, "\n")
	}
	ref, refMsg := run(false)
	got, gotMsg := run(true)
	if ref.Batch == nil || len(ref.MarkedStale) == 0 {
		t.Fatalf("the reference run committed nothing or marked nothing stale: %+v", ref)
	}
	// A batch id is random, and the log entry and the message carry it;
	// the commits planted are dated by git, now.
	sameBatch := cmp.Comparer(func(a, b *wiki.Result) bool {
		return (a == nil) == (b == nil) && a.Kind == b.Kind && cmp.Equal(written(a), written(b))
	})
	if d := cmp.Diff(ref, got, sameBatch, cmpopts.IgnoreFields(lint.Report{}, "Commit")); d != "" {
		t.Errorf("kept facts change the committed run (-read +kept):\n%s", d)
	}
	if refMsg != gotMsg {
		t.Errorf("commit:\n%s\nwant:\n%s", gotMsg, refMsg)
	}
}

// written is what a batch wrote but its log entry.
func written(r *wiki.Result) []wiki.Written {
	var out []wiki.Written
	for _, w := range r.Pages {
		if w.Path != wiki.LogPath {
			out = append(out, w)
		}
	}
	return out
}
