package retrieve

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/retrieve/internal/index"
	"github.com/ptwiki/pt/wiki"
)

// buildSpace is a space of 40 pages of two or three sections each, from a
// small vocabulary so that pages share words.
func buildSpace(t *testing.T) (*wiki.Space, []wiki.FileChange) {
	t.Helper()
	s := newSpace(t)
	words := []string{"ledger", "retry", "queue", "deploy", "freeze", "cache", "index", "commit", "payment", "runbook", "storage", "release"}
	files := map[string]string{}
	for i := range 40 {
		w := func(k int) string { return words[(i*7+k*5)%len(words)] }
		body := fmt.Sprintf("# Page %d\n\nThe %s and the %s.\n\n## %s notes\n\nA %s %s for the %s.\n", i, w(1), w(2), w(3), w(4), w(5), w(6))
		if i%3 == 0 {
			body += fmt.Sprintf("\n## %s steps\n\n%s then %s.\n", w(7), w(8), w(9))
		}
		files[fmt.Sprintf("pages/p%02d.md", i)] = page(content.Meta{Title: fmt.Sprintf("%s %s", w(0), w(3)), Topics: []string{w(10)}, Summary: "About " + w(11) + "."}, body)
	}
	put(t, s, files)
	changes, err := s.Diff(context.Background(), "", mustHead(t, s))
	if err != nil {
		t.Fatal(err)
	}
	return s, changes
}

// searchAll is what ix returns for a few questions, pages and sections.
func searchAll(t *testing.T, ix *index.Index) map[string][]index.Hit {
	t.Helper()
	out := map[string][]index.Hit{}
	for _, q := range []string{"ledger retry", "deploy freeze runbook", "payment storage cache notes", "commit"} {
		for _, typ := range []string{typePage, typeSection} {
			hits, err := ix.Search(context.Background(), index.Query{Text: q, Types: []string{typ}, Limit: 50})
			if err != nil {
				t.Fatal(err)
			}
			out[typ+" "+q] = hits
		}
	}
	return out
}

// serialIndex is the space's index built through Apply alone.
func serialIndex(t *testing.T, s *wiki.Space) *index.Index {
	t.Helper()
	ix, err := index.OpenMemory()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	ctx := context.Background()
	// A recorded commit ("" here) takes update off the bulk path.
	if err := ix.Apply(ctx, "", nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := update(ctx, s, ix, mustHead(t, s), nil); err != nil {
		t.Fatal(err)
	}
	return ix
}

// A first build on every core holds what a build through Apply holds.
func TestBuildMatchesSerialBuild(t *testing.T) {
	s, changes := buildSpace(t)
	want := serialIndex(t, s)
	ix, err := index.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	head := mustHead(t, s)
	if err := build(context.Background(), s, ix, head, changes, 7, nil); err != nil {
		t.Fatal(err)
	}
	if ix.Commit() != string(head) {
		t.Errorf("commit %q, want %q", ix.Commit(), head)
	}
	n, _ := ix.Count()
	if m, _ := want.Count(); n != m || n < 100 {
		t.Errorf("%d docs, serial build %d", n, m)
	}
	if diff := cmp.Diff(searchAll(t, want), searchAll(t, ix)); diff != "" {
		t.Errorf("(-serial +build):\n%s", diff)
	}
}

// A first build stopped midway (the process killed, or its question
// cancelled) leaves an index that the next Open reports as corrupt, so
// that it is deleted and built again, whole.
func TestStoppedBuildIsRebuilt(t *testing.T) {
	s, changes := buildSpace(t)
	want := serialIndex(t, s)
	dir := t.TempDir()
	ix, err := index.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stop := func(done, total int) {
		if done == total/2 {
			cancel()
		}
	}
	head := mustHead(t, s)
	if err := build(ctx, s, ix, head, changes, 7, stop); !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped build: %v", err)
	}
	if n, _ := ix.Count(); n == 0 {
		t.Fatal("nothing was added before the stop")
	}
	ix.Close()
	if _, err := index.Open(dir); !errors.Is(err, index.ErrCorrupt) {
		t.Fatalf("Open after a stopped build: %v, want ErrCorrupt", err)
	}
	ix, err = openOrReset(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if err := update(context.Background(), s, ix, head, nil); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(searchAll(t, want), searchAll(t, ix)); diff != "" {
		t.Errorf("(-serial +rebuilt):\n%s", diff)
	}
}
