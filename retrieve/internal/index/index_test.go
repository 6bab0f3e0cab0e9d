package index

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// backends runs a test against a memory index and an on-disk one, so that the
// two never drift apart (git-bug's repo_testing.go pattern).
func backends(t *testing.T, test func(t *testing.T, ix *Index)) {
	t.Helper()
	t.Run("memory", func(t *testing.T) {
		ix, err := OpenMemory()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ix.Close() })
		test(t, ix)
	})
	t.Run("disk", func(t *testing.T) {
		ix, err := Open(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ix.Close() })
		test(t, ix)
	})
}

func apply(t *testing.T, ix *Index, commit string, upsert []Doc, del ...string) {
	t.Helper()
	if err := ix.Apply(context.Background(), commit, upsert, del); err != nil {
		t.Fatal(err)
	}
}

func hitsFor(t *testing.T, ix *Index, q Query) []Hit {
	t.Helper()
	hits, err := ix.Search(context.Background(), q)
	if err != nil {
		t.Fatalf("search %q: %v", q.Text, err)
	}
	return hits
}

func ids(hits []Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.ID)
	}
	return out
}

func count(t *testing.T, ix *Index) int {
	t.Helper()
	n, err := ix.Count()
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// storagePage is a page and its two sections, as the retrieve package would
// flatten it.
func storagePage(rev, extra string) []Doc {
	return []Doc{
		{ID: "pages/storage.md", Path: "pages/storage.md", Type: "page", PageKind: "page",
			Title: "Storage engine", Topics: []string{"storage", "retrieval"},
			Summary: "Why the index is keyed by commit.", Body: "The index is rebuilt from git. " + extra,
			Revision: rev, Status: "active", Family: "storage", Inlinks: 7},
		{ID: "pages/storage.md#install", Path: "pages/storage.md", Type: "section", PageKind: "page",
			Title: "Storage engine", Heading: "Install > Linux", Anchor: "install", Topics: []string{"storage", "retrieval"},
			Body: "Run the installer on Linux hosts. " + extra, Revision: rev, Status: "active", Ord: 1},
		{ID: "pages/storage.md#tuning", Path: "pages/storage.md", Type: "section", PageKind: "page",
			Title: "Storage engine", Heading: "Tuning", Anchor: "tuning", Topics: []string{"storage", "retrieval"},
			Body: "Merge segments at night. " + extra, Revision: rev, Status: "active", Ord: 2},
	}
}

func TestApplySearchRoundTrip(t *testing.T) {
	backends(t, func(t *testing.T, ix *Index) {
		if got := ix.Commit(); got != "" {
			t.Fatalf("Commit of new index = %q, want empty", got)
		}
		if n := count(t, ix); n != 0 {
			t.Fatalf("Count of new index = %d", n)
		}
		docs := storagePage("blob1", "")
		apply(t, ix, "c1", docs)
		if got := ix.Commit(); got != "c1" {
			t.Fatalf("Commit = %q, want c1", got)
		}
		if n := count(t, ix); n != 3 {
			t.Fatalf("Count = %d, want 3", n)
		}
		hits := hitsFor(t, ix, Query{Text: "installing on linux", Limit: 5})
		if len(hits) == 0 || hits[0].ID != "pages/storage.md#install" {
			t.Fatalf("hits = %v, want install section first", ids(hits))
		}
		// Every stored field comes back, so callers need not read git to rank.
		if diff := cmp.Diff(docs[1], hits[0].Doc); diff != "" {
			t.Errorf("hit doc (-want +got):\n%s", diff)
		}
		if hits[0].Score <= 0 {
			t.Errorf("score = %v, want > 0", hits[0].Score)
		}
		hits = hitsFor(t, ix, Query{Text: "installing on linux", OmitBody: true})
		if hits[0].Body != "" {
			t.Errorf("OmitBody: body = %q", hits[0].Body)
		}
	})
}

func TestApplyReplacesAndDeletesWholePaths(t *testing.T) {
	backends(t, func(t *testing.T, ix *Index) {
		apply(t, ix, "c1", storagePage("blob1", "zebra"))
		apply(t, ix, "c1", []Doc{{ID: "pages/other.md", Path: "pages/other.md", Type: "page", Title: "Other", Body: "zebra crossing"}})
		if n := count(t, ix); n != 4 {
			t.Fatalf("Count = %d, want 4", n)
		}

		// The page lost a section and changed words: only the new Docs remain.
		newDocs := storagePage("blob2", "giraffe")[:2]
		apply(t, ix, "c2", newDocs)
		if n := count(t, ix); n != 3 {
			t.Fatalf("after replace Count = %d, want 3", n)
		}
		got := ids(hitsFor(t, ix, Query{Text: "zebra", Limit: 10}))
		if diff := cmp.Diff([]string{"pages/other.md"}, got); diff != "" {
			t.Errorf("old words still indexed (-want +got):\n%s", diff)
		}
		for _, h := range hitsFor(t, ix, Query{Text: "giraffe", Limit: 10}) {
			if h.Revision != "blob2" {
				t.Errorf("%s revision = %q, want blob2", h.ID, h.Revision)
			}
		}
		if hits := hitsFor(t, ix, Query{Text: "merge segments night"}); len(hits) != 0 {
			t.Errorf("dropped section still found: %v", ids(hits))
		}

		// Delete a path; deleting a path that is not there is fine.
		apply(t, ix, "c3", nil, "pages/storage.md", "pages/never.md")
		if n := count(t, ix); n != 1 {
			t.Fatalf("after delete Count = %d, want 1", n)
		}
		if got := ix.Commit(); got != "c3" {
			t.Errorf("Commit = %q, want c3", got)
		}

		// Deleting and re-adding the same path in one Apply keeps the new Docs.
		apply(t, ix, "c4", storagePage("blob3", ""), "pages/storage.md")
		if n := count(t, ix); n != 4 {
			t.Fatalf("after delete+upsert Count = %d, want 4", n)
		}
	})
}

func TestApplyRejectsBadDocs(t *testing.T) {
	backends(t, func(t *testing.T, ix *Index) {
		bad := [][]Doc{
			{{ID: "", Path: "pages/a.md"}},
			{{ID: "pages/a.md", Path: ""}},
			{{ID: "pages/a.md", Path: "pages/a.md"}, {ID: "pages/a.md", Path: "pages/a.md"}},
			{{ID: metaID, Path: "pages/a.md"}},
		}
		for _, docs := range bad {
			if err := ix.Apply(context.Background(), "c", docs, nil); err == nil {
				t.Errorf("Apply(%v) succeeded, want error", docs)
			}
		}
		if got := ix.Commit(); got != "" {
			t.Errorf("failed applies recorded commit %q", got)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if err := ix.Apply(ctx, "c", nil, nil); err == nil {
			t.Error("Apply with cancelled context succeeded")
		}
	})
}

func TestTitleOutranksBody(t *testing.T) {
	backends(t, func(t *testing.T, ix *Index) {
		docs := []Doc{
			{ID: "pages/body.md", Path: "pages/body.md", Type: "page", Title: "Notes", Summary: "Notes on clusters.", Body: "Some notes that mention kubernetes once among other words."},
			{ID: "pages/title.md", Path: "pages/title.md", Type: "page", Title: "Kubernetes", Summary: "Notes on clusters.", Body: "Some notes that mention clusters once among other words."},
			{ID: "pages/summary.md", Path: "pages/summary.md", Type: "page", Title: "Ops", Summary: "Notes on kubernetes.", Body: "Some notes about clusters and more words here."},
		}
		// Fillers, so that every field has the document frequencies of a
		// real space rather than of three pages.
		for i := range 10 {
			p := fmt.Sprintf("pages/filler%d.md", i)
			docs = append(docs, Doc{ID: p, Path: p, Type: "page", Title: "Filler page", Summary: "Nothing to see.", Body: "Gardening, cooking and other matters."})
		}
		apply(t, ix, "c1", docs)
		got := ids(hitsFor(t, ix, Query{Text: "kubernetes"}))
		if diff := cmp.Diff([]string{"pages/title.md", "pages/summary.md", "pages/body.md"}, got); diff != "" {
			t.Errorf("ranking (-want +got):\n%s", diff)
		}
		// Boosts are the caller's: searching the body alone ignores the title.
		got = ids(hitsFor(t, ix, Query{Text: "kubernetes", Fields: map[string]float64{"body": 1}}))
		if diff := cmp.Diff([]string{"pages/body.md"}, got); diff != "" {
			t.Errorf("body-only (-want +got):\n%s", diff)
		}
		if _, err := ix.Search(context.Background(), Query{Text: "kubernetes", Fields: map[string]float64{"bogus": 1}}); err == nil {
			t.Error("unknown field accepted")
		}
	})
}

func TestPartialMatchesScore(t *testing.T) {
	backends(t, func(t *testing.T, ix *Index) {
		apply(t, ix, "c1", []Doc{
			{ID: "a", Path: "a", Type: "page", Body: "deploy the service to production"},
			{ID: "b", Path: "b", Type: "page", Body: "the service is written in Go"},
			{ID: "c", Path: "c", Type: "page", Body: "unrelated gardening advice"},
		})
		got := ids(hitsFor(t, ix, Query{Text: "How do I deploy my service to production safely?"}))
		if diff := cmp.Diff([]string{"a", "b"}, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
		// Stemming: "deployed", "deploying" meet "deploy".
		if got := ids(hitsFor(t, ix, Query{Text: "deploying"})); !slices.Equal(got, []string{"a"}) {
			t.Errorf("stemmed search = %v, want [a]", got)
		}
	})
}

func TestFilters(t *testing.T) {
	backends(t, func(t *testing.T, ix *Index) {
		var docs []Doc
		for i, st := range []string{"active", "stale", "retracted", "expired", ""} {
			p := fmt.Sprintf("pages/p%d.md", i)
			docs = append(docs,
				Doc{ID: p, Path: p, Type: "page", Status: st, Title: "Backup policy", Body: "backup nightly"},
				Doc{ID: p + "#s", Path: p, Type: "section", Status: st, Heading: "Backup", Body: "backup nightly"},
			)
		}
		docs = append(docs, Doc{ID: "topics/backup.md", Path: "topics/backup.md", Type: "spoke", Title: "backup", Body: "backup pages"})
		apply(t, ix, "c1", docs)

		all := hitsFor(t, ix, Query{Text: "backup", Limit: 100})
		if len(all) != 11 {
			t.Fatalf("unfiltered hits = %d, want 11", len(all))
		}
		for _, h := range hitsFor(t, ix, Query{Text: "backup", Types: []string{"section"}, Limit: 100}) {
			if h.Type != "section" {
				t.Errorf("Types filter let through %s (%s)", h.ID, h.Type)
			}
		}
		got := ids(hitsFor(t, ix, Query{Text: "backup", Types: []string{"spoke", "page"}, Paths: []string{"topics/backup.md", "pages/p1.md"}, Limit: 100}))
		slices.Sort(got)
		if diff := cmp.Diff([]string{"pages/p1.md", "topics/backup.md"}, got); diff != "" {
			t.Errorf("Types+Paths (-want +got):\n%s", diff)
		}
		hits := hitsFor(t, ix, Query{Text: "backup", ExcludeStatus: []string{"stale", "retracted", "expired"}, Limit: 100})
		if len(hits) != 5 {
			t.Errorf("ExcludeStatus hits = %v, want 5", ids(hits))
		}
		for _, h := range hits {
			if h.Status != "active" && h.Status != "" {
				t.Errorf("ExcludeStatus let through %s (%s)", h.ID, h.Status)
			}
		}
		if hits := hitsFor(t, ix, Query{Text: "backup", Limit: 3}); len(hits) != 3 {
			t.Errorf("Limit 3 gave %d hits", len(hits))
		}
		// Filters select without scoring: the same doc scores the same.
		a := hitsFor(t, ix, Query{Text: "backup", Paths: []string{"pages/p0.md"}, Types: []string{"page"}})
		b := hitsFor(t, ix, Query{Text: "backup", Paths: []string{"pages/p0.md"}})
		if len(a) != 1 || b[0].ID != "pages/p0.md" || a[0].Score != b[0].Score {
			t.Errorf("filtered score %v vs %v", a, b)
		}
	})
}

func TestOddQuestions(t *testing.T) {
	backends(t, func(t *testing.T, ix *Index) {
		apply(t, ix, "c1", []Doc{
			{ID: "en", Path: "en", Type: "page", Title: "Release process", Body: "tag and release"},
			{ID: "zh", Path: "zh", Type: "page", Title: "发布流程", Body: "打标签并发布 \x00\x01 control \xff\xfe invalid"},
			{ID: "ru", Path: "ru", Type: "page", Title: "Процесс выпуска", Body: "выпуск"},
		})
		huge := strings.Repeat("release tag words of many kinds ", 100<<10/32)
		for name, q := range map[string]string{
			"empty":      "",
			"spaces":     "   \t\n ",
			"stop words": "what is the of and",
			"punct":      "?!#$%^&*()",
			"control":    "\x00\x01\x02release\x7f\x1b[31m",
			"invalid":    "\xff\xfe\xfdrelease",
			"cjk":        "发布流程是什么",
			"cyrillic":   "процесс выпуска",
			"emoji":      "🚀 release 🚀",
			"huge":       huge,
			"long word":  strings.Repeat("x", 10000),
		} {
			t.Run(name, func(t *testing.T) {
				if _, err := ix.Search(context.Background(), Query{Text: q}); err != nil {
					t.Errorf("error: %v", err)
				}
			})
		}
		for _, q := range []string{"", "the of and", "?!"} {
			if hits := hitsFor(t, ix, Query{Text: q}); len(hits) != 0 {
				t.Errorf("%q: %d hits, want none", q, len(hits))
			}
		}
		if got := ids(hitsFor(t, ix, Query{Text: "发布"})); len(got) == 0 || got[0] != "zh" {
			t.Errorf("CJK search = %v, want zh first", got)
		}
		if got := ids(hitsFor(t, ix, Query{Text: "\x00release\x01"})); len(got) == 0 || got[0] != "en" {
			t.Errorf("control chars = %v, want en first", got)
		}
		if got := ids(hitsFor(t, ix, Query{Text: "выпуск"})); len(got) == 0 || got[0] != "ru" {
			t.Errorf("cyrillic = %v, want ru first", got)
		}
	})
}

func TestTerms(t *testing.T) {
	got := Terms("How are the Indexes keyed? indexes, INDEX!")
	if diff := cmp.Diff([]string{"index", "key"}, got); diff != "" {
		t.Errorf("Terms (-want +got):\n%s", diff)
	}
	var b strings.Builder
	for i := range 500 {
		fmt.Fprintf(&b, "word%d ", i)
	}
	if n := len(Terms(b.String())); n != MaxTerms {
		t.Errorf("len(Terms) = %d, want %d", n, MaxTerms)
	}
}

func TestConcurrentSearchAndApply(t *testing.T) {
	backends(t, func(t *testing.T, ix *Index) {
		apply(t, ix, "c0", storagePage("b0", ""))
		ctx := context.Background()
		var wg sync.WaitGroup
		stop := make(chan struct{})
		for range 4 {
			wg.Go(func() {
				for {
					select {
					case <-stop:
						return
					default:
					}
					hits, err := ix.Search(ctx, Query{Text: "storage linux", Limit: 5})
					if err != nil {
						t.Error(err)
						return
					}
					// A snapshot never shows a page half replaced.
					if len(hits) != 3 {
						t.Errorf("got %d hits mid-apply, want 3", len(hits))
						return
					}
					if _, err := ix.Count(); err != nil {
						t.Error(err)
						return
					}
				}
			})
		}
		for i := range 20 {
			rev := fmt.Sprintf("b%d", i+1)
			apply(t, ix, "c"+rev, storagePage(rev, rev))
		}
		close(stop)
		wg.Wait()
		if got := ix.Commit(); got != "cb20" {
			t.Errorf("Commit = %q", got)
		}
	})
}

func TestClosed(t *testing.T) {
	backends(t, func(t *testing.T, ix *Index) {
		if err := ix.Close(); err != nil {
			t.Fatal(err)
		}
		if err := ix.Close(); err != nil {
			t.Errorf("second Close: %v", err)
		}
		if _, err := ix.Search(context.Background(), Query{Text: "x"}); err == nil {
			t.Error("Search after Close succeeded")
		}
		if err := ix.Apply(context.Background(), "c", nil, nil); err == nil {
			t.Error("Apply after Close succeeded")
		}
	})
}
