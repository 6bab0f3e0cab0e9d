package retrieve

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/retrieve/internal/index"
	"github.com/ptwiki/pt/wiki"
)

var testWhen = time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC)

// newSpace makes an empty space in a temporary directory.
func newSpace(t testing.TB) *wiki.Space {
	t.Helper()
	s, _, err := wiki.Init(context.Background(), t.TempDir(), wiki.InitOptions{Name: "test", When: testWhen, Clock: wiki.SteppingClock(testWhen, time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// openEngine opens an Engine on s, closed at cleanup (before the space).
func openEngine(t testing.TB, s *wiki.Space) *Engine {
	t.Helper()
	e := Open(s, Options{})
	t.Cleanup(func() { e.Close() })
	return e
}

// put writes files (path → content) as one batch.
func put(t testing.TB, s *wiki.Space, files map[string]string) {
	t.Helper()
	_, err := s.Apply(context.Background(), wiki.Batch{Kind: "ingest", Title: "test pages", ApprovedBy: "dana", When: testWhen},
		func(ctx context.Context, tx *wiki.Tx) error {
			for p, c := range files {
				if _, err := tx.PutFile(ctx, p, []byte(c), wiki.RolePage); err != nil {
					return err
				}
			}
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
}

// page renders a page with frontmatter.
func page(m content.Meta, body string) string {
	return string(content.NewPage(m, []byte(body)).MustBytes())
}

// corpusSpace copies every Markdown file of a corpus directory into sources/
// of a fresh space in one batch (as an import without summaries or topics
// would), for evaluations.
func corpusSpace(t testing.TB, dir string) *wiki.Space {
	t.Helper()
	s := newSpace(t)
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files["sources/"+filepath.ToSlash(rel)] = string(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	put(t, s, files)
	return s
}

// coveredOnlyWith checks that question is answered with want first and
// word not among its missing terms, and that word is missing, or the
// coverage lower, once off has turned off the feature under test, so that
// the test can fail without it. Each ranking gets an Engine and an index
// of its own.
func coveredOnlyWith(t *testing.T, s *wiki.Space, question, want, word string, off func(*Ranking)) {
	t.Helper()
	rk := DefaultRanking()
	ask := func(rk Ranking) *Result {
		t.Helper()
		e := Open(s, Options{Ranking: rk, IndexDir: t.TempDir()})
		defer e.Close()
		res, err := e.Query(context.Background(), Request{Question: question, Now: testWhen})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	on := ask(rk)
	if !on.Sufficient || on.Results[0].Path != want || slices.Contains(on.MissingTerms, word) {
		t.Fatalf("want %s first, %q held: got sufficient %v (%s), missing %v", want, word, on.Sufficient, on.Trace.Reason, on.MissingTerms)
	}
	off(&rk)
	if res := ask(rk); !slices.Contains(res.MissingTerms, word) && res.Coverage >= on.Coverage {
		t.Errorf("%q held with the feature off too (missing %v, coverage %.3f, %.3f with it): the test does not exercise it", word, res.MissingTerms, res.Coverage, on.Coverage)
	}
}

func mustHead(t testing.TB, s *wiki.Space) wiki.Rev {
	t.Helper()
	head, err := s.Head(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return head
}

// holdIndex closes e's indexes and opens its on-disk index as another
// holder would (a server in another process), for tests of what queries
// do beside it. The holder is closed at cleanup.
func holdIndex(t testing.TB, e *Engine) *index.Index {
	t.Helper()
	e.Close()
	other, err := index.Open(e.dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Close() })
	return other
}

// padSpace adds keyMinUnits pages to files, so that the space is large
// enough to tell rare words from common ones: pages/<slug>-NNN.md, titled
// title (a format of the page's number), with body(number) as its text.
func padSpace(files map[string]string, slug, title string, body func(i int) string) {
	for i := range keyMinUnits {
		files[fmt.Sprintf("pages/%s-%03d.md", slug, i)] = page(content.Meta{Title: fmt.Sprintf(title, i)}, body(i))
	}
}
