package lint_test

import (
	"context"
	"testing"

	"github.com/ptwiki/pt/lint"
)

// TestPlanted lints a space with one planted fault of each kind and
// checks, like analysistest, that every `want` marker is matched by a
// finding on its line and that there is no finding without a marker.
func TestPlanted(t *testing.T) {
	checkFixture(t, "testdata/planted.txtar")
}

// TestProvenanceLines: a drifted pin is reported on the line of its path,
// not on an earlier line that happens to name the same file.
func TestProvenanceLines(t *testing.T) {
	checkFixture(t, "testdata/provenance_lines.txtar")
}

// checkFixture plants a fixture in a fresh space, lints it and matches the
// findings against its want markers.
func checkFixture(t *testing.T, fixture string) {
	t.Helper()
	ctx := context.Background()
	dir, s := newSpace(t)
	plant(t, dir, fixture)
	head, err := s.Head(ctx)
	if err != nil {
		t.Fatal(err)
	}
	fs, err := lint.Check(ctx, s, head, now)
	if err != nil {
		t.Fatal(err)
	}
	expect := wants(t, dir)
	if len(expect) == 0 {
		t.Fatal("fixture has no want markers")
	}
	matched := map[want]bool{}
	for _, f := range fs {
		w := want{f.Path, f.Check, f.Line}
		if f.Line == 0 { // a whole-page finding matches a marker anywhere on the page
			for e := range expect {
				if e.path == f.Path && e.check == f.Check {
					w = e
				}
			}
		}
		if !expect[w] {
			t.Errorf("unexpected finding %s:%d: %s: %s", f.Path, f.Line, f.Check, f.Message)
			continue
		}
		matched[w] = true
	}
	for e := range expect {
		if !matched[e] {
			t.Errorf("%s:%d: no %s finding", e.path, e.line, e.check)
		}
	}
	for _, f := range fs {
		if f.ID == "" || f.Severity == "" || f.Status != lint.StatusOpen || !f.FirstSeen.Equal(now) {
			t.Errorf("malformed row %+v", f)
		}
	}
}

// TestFreshSpace: a space just made by pt init has nothing to report.
func TestFreshSpace(t *testing.T) {
	ctx := context.Background()
	_, s := newSpace(t)
	head, _ := s.Head(ctx)
	fs, err := lint.Check(ctx, s, head, now)
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 0 {
		t.Errorf("fresh space has findings: %+v", fs)
	}
}

// TestSecretsInPages: credentials in pages people committed with git are
// findings, one per kind and page, at their line, frontmatter included;
// placeholders are not.
func TestSecretsInPages(t *testing.T) {
	checkFixture(t, "testdata/secrets.txtar")
}
