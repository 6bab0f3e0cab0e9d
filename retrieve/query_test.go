package retrieve

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/lint"
	"github.com/ptwiki/pt/wiki"
)

func storageSpace(t testing.TB) *wiki.Space {
	t.Helper()
	s := newSpace(t)
	put(t, s, map[string]string{
		"pages/storage.md": page(content.Meta{Title: "Why the index is keyed by commit", Topics: []string{"storage"}, Summary: "The derived index records the commit it reflects."},
			"# Keyed by commit\n\nThe full-text index records the git commit it reflects, so that an update diffs that commit against HEAD.\n\n## Rebuild\n\nDeleting the index directory loses nothing: it is rebuilt from git.\n"),
		"pages/old-storage.md": page(content.Meta{Title: "Index keyed by timestamp", Status: content.StatusStale, Topics: []string{"storage"}},
			"The full-text index records a timestamp and the git commit it reflects.\n"),
		"synthesis/ttl.md": page(content.Meta{Title: "Index commit answer", Kind: content.KindSynthesis, Durability: "time_bound", Expires: "2026-01-31", Topics: []string{"storage"}},
			"The index records the git commit it reflects (consult answer).\n"),
		"pages/cooking.md": page(content.Meta{Title: "Team lunch", Topics: []string{"social"}}, "We order noodles on Fridays.\n"),
		lint.FindingsPath:  `{"findings":[{"id":"f1","check":"orphan_page","severity":"warning","path":"pages/storage.md","message":"orphan","status":"open"}]}`,
	})
	return s
}

func TestQueryFiltersAndCites(t *testing.T) {
	s := storageSpace(t)
	eng := openEngine(t, s)
	ctx := context.Background()
	res, err := eng.Query(ctx, Request{Question: "which git commit does the full-text index reflect?", Now: testWhen})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Sufficient || len(res.Results) == 0 {
		t.Fatalf("want an answer, got %+v", res)
	}
	var paths []string
	for _, h := range res.Results {
		paths = append(paths, h.Path)
		head, _ := s.Head(ctx)
		_, blob, err := s.ReadFile(ctx, head, h.Path)
		if err != nil || blob != h.Revision {
			t.Errorf("%s: revision %s, git says %s (%v)", h.Path, h.Revision, blob, err)
		}
	}
	// the stale page and the expired synthesis never come back; the page with
	// an open finding comes back marked
	if diff := cmp.Diff([]string{"pages/storage.md"}, paths); diff != "" {
		t.Errorf("paths (-want +got):\n%s", diff)
	}
	if !res.Results[0].NeedsReview {
		t.Error("pages/storage.md has an open finding but needs_review is false")
	}
	if !slicesContains(res.Trace.Topics, "storage") || res.Trace.SpokesRead == 0 {
		t.Errorf("trace %+v: want the storage spoke read", res.Trace)
	}

	// before its expiry the synthesis is a candidate like any page
	res, err = eng.Query(ctx, Request{Question: "which git commit does the full-text index reflect?", Now: time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, h := range res.Results {
		found = found || h.Path == "synthesis/ttl.md"
	}
	if !found {
		t.Errorf("unexpired synthesis missing from %+v", res.Results)
	}
}

func slicesContains(ss []string, s string) bool {
	for _, x := range ss {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

func TestQueryBadInput(t *testing.T) {
	s := storageSpace(t)
	eng := openEngine(t, s)
	ctx := context.Background()
	for _, q := range []string{"", "   ", "\x00\x01\n"} {
		if _, err := eng.Query(ctx, Request{Question: q}); !errors.Is(err, ErrEmptyQuestion) {
			t.Errorf("Query(%q) = %v, want ErrEmptyQuestion", q, err)
		}
	}
	for name, q := range map[string]string{
		"huge":    strings.Repeat("sourdough rye starter hydration ", 100<<10/32),
		"script":  "索引记录了哪个提交",
		"control": "index\x07commit\x1b[31m",
		"invalid": "index \xff\xfe commit",
		"punct":   "?!?!",
	} {
		res, err := eng.Query(ctx, Request{Question: q})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if res.Sufficient && name != "control" && name != "invalid" {
			t.Errorf("%s: sufficient with %d results", name, len(res.Results))
		}
		if !res.Sufficient && (len(res.Results) != 0 || res.Tokens != 0) {
			t.Errorf("%s: insufficient but padded: %+v", name, res)
		}
	}
}

func TestQueryBudget(t *testing.T) {
	s := newSpace(t)
	eng := openEngine(t, s)
	files := map[string]string{}
	long := strings.Repeat("The deploy pipeline promotes a canary build after the smoke tests pass. ", 80)
	for _, n := range []string{"a", "b", "c", "d", "e", "f"} {
		files["pages/deploy-"+n+".md"] = "# Deploy " + n + "\n\n" + long + "\n\n" + long + "\n"
	}
	put(t, s, files)
	for _, budget := range []int{100, 500, 4000} {
		res, err := eng.Query(context.Background(), Request{Question: "how is the canary build promoted by the deploy pipeline?", Budget: budget})
		if err != nil {
			t.Fatal(err)
		}
		sum := 0
		seen := map[string]bool{}
		for _, h := range res.Results {
			sum += EstimateTokens(h.Excerpt)
			if seen[h.Path] {
				t.Errorf("budget %d: %s twice", budget, h.Path)
			}
			seen[h.Path] = true
		}
		if !res.Sufficient || sum != res.Tokens || res.Tokens > budget || res.Tokens == 0 {
			t.Errorf("budget %d: sufficient %v, tokens %d, excerpts sum %d", budget, res.Sufficient, res.Tokens, sum)
		}
	}
}

// The index follows commits made outside pt, survives corruption, and a
// busy index does not stop a query.
func TestIndexLifecycle(t *testing.T) {
	s := storageSpace(t)
	eng := openEngine(t, s)
	ctx := context.Background()
	q := Request{Question: "noodles on fridays", Now: testWhen}
	if res, err := eng.Query(ctx, q); err != nil || !res.Sufficient || res.Trace.Index != "disk" {
		t.Fatalf("first query: %+v %v", res, err)
	}
	put(t, s, map[string]string{"pages/cooking.md": page(content.Meta{Title: "Team lunch"}, "We order dumplings on Fridays.\n")})
	res, err := eng.Query(ctx, Request{Question: "dumplings fridays", Now: testWhen})
	if err != nil || !res.Sufficient || !strings.Contains(res.Results[0].Excerpt, "dumplings") {
		t.Fatalf("after update: %+v %v", res, err)
	}
	st, err := eng.Status(ctx)
	if err != nil || !st.Current || st.Docs == 0 {
		t.Fatalf("status %+v %v", st, err)
	}

	q.Question = "dumplings fridays"
	// corrupt: the next query rebuilds it
	eng.Close()
	if err := os.WriteFile(filepath.Join(IndexDir(s), "pt-index"), []byte("garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	if res, err := eng.Query(ctx, q); err != nil || !res.Sufficient {
		t.Fatalf("query on a corrupt index: %+v %v", res, err)
	}

	// busy: another holder of the directory, at head; the query reads its
	// snapshot
	other := holdIndex(t, eng)
	res, err = eng.Query(ctx, q)
	if err != nil || !res.Sufficient || res.Trace.Index != "snapshot" || !strings.Contains(res.Results[0].Excerpt, "dumplings") {
		t.Fatalf("query on a busy index at head: %+v %v", res, err)
	}
	// a commit the holder has not indexed: the query is answered from memory
	put(t, s, map[string]string{"pages/tea.md": "# Tea\n\nGreen tea on Mondays.\n"})
	res, err = eng.Query(ctx, Request{Question: "green tea mondays", Now: testWhen})
	if err != nil || !res.Sufficient || res.Trace.Index != "memory" || res.Results[0].Path != "pages/tea.md" {
		t.Fatalf("query on a busy index behind head: %+v %v", res, err)
	}
	// the stand-in is kept and follows new commits
	put(t, s, map[string]string{"pages/coffee.md": "# Coffee\n\nFilter coffee on Tuesdays.\n"})
	res, err = eng.Query(ctx, Request{Question: "filter coffee tuesdays", Now: testWhen})
	if err != nil || !res.Sufficient || res.Trace.Index != "memory" || res.Results[0].Path != "pages/coffee.md" {
		t.Fatalf("second query on a busy index behind head: %+v %v", res, err)
	}
	// once the holder catches up, its snapshot serves again
	if err := update(ctx, s, other, mustHead(t, s), nil); err != nil {
		t.Fatal(err)
	}
	res, err = eng.Query(ctx, Request{Question: "filter coffee tuesdays", Now: testWhen})
	other.Close()
	if err != nil || !res.Sufficient || res.Trace.Index != "snapshot" || res.Results[0].Path != "pages/coffee.md" {
		t.Fatalf("query after the holder caught up: %+v %v", res, err)
	}
	if err := eng.Rebuild(ctx); err != nil {
		t.Fatal(err)
	}
	if st, err := eng.Status(ctx); err != nil || !st.Current {
		t.Fatalf("status after rebuild %+v %v", st, err)
	}
}

func TestFamilyAndCanonical(t *testing.T) {
	for _, c := range []struct{ path, family, canon string }{
		{"sources/sig-node/annual-report-2023.md", "sig-node/annual-report-#", "sig-node/annual-report-2023.md"},
		{"summaries/sig-node/annual-report-2024.md", "sig-node/annual-report-#", "sig-node/annual-report-2024.md"},
		{"contributors/guide/contributor-cheatsheet/README-de.md", "contributors/guide/contributor-cheatsheet/readme", "contributors/guide/contributor-cheatsheet/README-de.md"},
		{"heapdump14.md", "heapdump#", "heapdump14.md"},
		{"elections/steering/2021/README.md", "elections/steering/#/readme", "elections/steering/2021/README.md"},
		{"pages/storage.md", "pages/storage", "pages/storage.md"},
	} {
		if got := family(c.path); got != c.family {
			t.Errorf("family(%q) = %q, want %q", c.path, got, c.family)
		}
		if got := canonical(c.path); got != c.canon {
			t.Errorf("canonical(%q) = %q, want %q", c.path, got, c.canon)
		}
	}
}

func TestGoldRank(t *testing.T) {
	rank, all := goldRank([]string{"sources/a.md", "summaries/b.md", "c.md"}, []string{"b.md", "c.md"}, 8)
	if rank != 2 || !all {
		t.Errorf("goldRank = %d, %v; want 2, true", rank, all)
	}
	if rank, all := goldRank([]string{"x.md"}, nil, 8); rank != 0 || all {
		t.Errorf("empty gold: %d %v", rank, all)
	}
}

// Concurrent queries share one index and agree.
func TestQueryConcurrent(t *testing.T) {
	s := storageSpace(t)
	eng := openEngine(t, s)
	put(t, s, map[string]string{"pages/lunch.md": "# Lunch\n\nDumplings on Thursdays.\n"})
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			res, err := eng.Query(context.Background(), Request{Question: "dumplings thursdays", Now: testWhen})
			if err == nil && (!res.Sufficient || res.Results[0].Path != "pages/lunch.md") {
				err = errors.New("wrong answer: " + res.Trace.Reason)
			}
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// A budget too small for any excerpt is refused, not answered "sufficient"
// with nothing to cite; the smallest accepted budget returns an excerpt.
func TestQueryBudgetTooSmall(t *testing.T) {
	s := storageSpace(t)
	eng := openEngine(t, s)
	ctx := context.Background()
	q := "which git commit does the full-text index reflect?"
	for _, b := range []int{1, MinBudget - 1} {
		if res, err := eng.Query(ctx, Request{Question: q, Budget: b}); !errors.Is(err, ErrBudgetTooSmall) {
			t.Errorf("Query(budget %d) = %+v, %v; want ErrBudgetTooSmall", b, res, err)
		}
	}
	res, err := eng.Query(ctx, Request{Question: q, Budget: MinBudget, Now: testWhen})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Sufficient || len(res.Results) == 0 {
		t.Errorf("Query(budget %d): sufficient %v with %d results, want an excerpt", MinBudget, res.Sufficient, len(res.Results))
	}
	if res.Tokens > MinBudget {
		t.Errorf("Query(budget %d): %d tokens, over budget", MinBudget, res.Tokens)
	}
}

// A source and its summary are one page: a retracted source takes its
// summary's restatement out of the answers with it, before lint has marked
// the summary stale.
func TestRetractedSourceTakesItsSummary(t *testing.T) {
	s := newSpace(t)
	eng := openEngine(t, s)
	ctx := context.Background()
	src := "# Ledger replays\n\nReplays of the ledger write queue carry idempotency keys, so that a retried write is applied once.\n"
	put(t, s, map[string]string{
		"sources/ledger.md": page(content.Meta{Title: "Ledger replays", Kind: content.KindSource, Topics: []string{"ops"}}, src),
		"summaries/ledger.md": page(content.Meta{Title: "Ledger replays", Kind: content.KindSummary, Topics: []string{"ops"},
			Provenance: content.Provenance{DerivedFrom: []content.Ref{{Path: "sources/ledger.md", Revision: wiki.BlobID([]byte(src))}}}},
			"# Ledger replays\n\nLedger replays carry idempotency keys so a retried write is applied once.\n"),
		"pages/lunch.md": page(content.Meta{Title: "Team lunch", Topics: []string{"social"}}, "We order noodles on Fridays.\n"),
	})
	q := Request{Question: "why do ledger replays carry idempotency keys?", Now: testWhen}
	if res, err := eng.Query(ctx, q); err != nil || len(res.Results) == 0 {
		t.Fatalf("before the retraction: %+v, %v", res, err)
	}
	put(t, s, map[string]string{
		"sources/ledger.md": page(content.Meta{Title: "Ledger replays", Kind: content.KindSource, Status: content.StatusRetracted, Topics: []string{"ops"}}, src),
	})
	res, err := eng.Query(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range res.Results {
		if strings.Contains(h.Path, "ledger") {
			t.Errorf("%s came back after its source was retracted", h.Path)
		}
	}
}

// FuzzQuery asks any question of a small space: Query either refuses an
// empty question or answers within its budget, from active pages only, and
// an insufficient answer carries nothing.
func FuzzQuery(f *testing.F) {
	s := storageSpace(f)
	eng := openEngine(f, s)
	ctx := context.Background()
	for _, q := range []string{"which commit does the index record?", "noodles", "", "索引", "index\x00commit", "rebuild rebuild rebuild"} {
		f.Add(q, 0)
	}
	f.Fuzz(func(t *testing.T, q string, budget int) {
		if budget < 0 || budget > 0 && budget < MinBudget {
			budget = 0
		}
		res, err := eng.Query(ctx, Request{Question: q, Budget: budget})
		if errors.Is(err, ErrEmptyQuestion) {
			return
		}
		if err != nil {
			t.Fatalf("Query(%q): %v", q, err)
		}
		if budget == 0 {
			budget = DefaultBudget
		}
		if res.Tokens > budget {
			t.Errorf("Query(%q): %d tokens, budget %d", q, res.Tokens, budget)
		}
		if !res.Sufficient && (len(res.Results) > 0 || res.Tokens > 0) {
			t.Errorf("Query(%q): insufficient with %d results", q, len(res.Results))
		}
		for _, h := range res.Results {
			if h.Path == "pages/old-storage.md" || h.Path == "synthesis/ttl.md" {
				t.Errorf("Query(%q) returned inactive page %s", q, h.Path)
			}
		}
	})
}
