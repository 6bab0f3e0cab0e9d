package retrieve

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/ptwiki/pt/content"
)

// appliesSpace holds pages scoped to parts of a code repository, and one
// that matches the question's words better but applies to nothing.
func appliesSpace(t *testing.T) func(Request) *Result {
	t.Helper()
	sp := newSpace(t)
	put(t, sp, map[string]string{
		"pages/ledger-replay.md": page(content.Meta{Title: "Ledger replays carry idempotency keys", Topics: []string{"ledger"}, Updated: testWhen,
			AppliesTo: []string{"internal/ledger/replay.go"}}, "Every replay of the ledger write queue carries an idempotency key, so that a retried write is applied once.\n"),
		"pages/ledger-style.md": page(content.Meta{Title: "Ledger package conventions", Topics: []string{"ledger"}, Updated: testWhen.Add(-48 * time.Hour),
			AppliesTo: []string{"internal/ledger/**"}}, "Errors in the ledger package wrap the account id. Money is int64 cents, never float.\n"),
		"pages/go-tests.md": page(content.Meta{Title: "Test conventions", Topics: []string{"testing"}, Kind: content.KindPage, Updated: testWhen,
			AppliesTo: []string{"**/*_test.go"}}, "Tests use real git repositories, never mocks of them.\n"),
		"pages/retries.md": page(content.Meta{Title: "How retries work", Topics: []string{"operations"}, Updated: testWhen},
			"Retries back off exponentially. A retried write in the billing service uses a retry budget of three attempts.\n"),
		"pages/old-ledger.md": page(content.Meta{Title: "Old ledger rules", Status: content.StatusRetracted, AppliesTo: []string{"internal/ledger/**"}},
			"Replays may skip idempotency keys.\n"),
	})
	e := openEngine(t, sp)
	return func(r Request) *Result {
		t.Helper()
		res, err := e.Query(context.Background(), r)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
}

func paths(res *Result) []string {
	var out []string
	for _, h := range res.Results {
		out = append(out, h.Path)
	}
	return out
}

func TestPathsWithoutQuestion(t *testing.T) {
	q := appliesSpace(t)
	res := q(Request{Paths: []string{"internal/ledger/replay.go"}})
	got := paths(res)
	if !res.Sufficient || len(got) != 2 || got[0] != "pages/ledger-replay.md" || got[1] != "pages/ledger-style.md" {
		t.Fatalf("what applies to internal/ledger/replay.go: %v (sufficient %v, %s)", got, res.Sufficient, res.Trace.Reason)
	}
	if res.Results[0].Revision == "" || res.Results[0].Excerpt == "" || res.Trace.Applied != 2 {
		t.Errorf("hit without revision or excerpt: %+v", res.Results[0])
	}
	res = q(Request{Paths: []string{"internal/ledger/sub/x_test.go"}})
	if got := paths(res); len(got) != 2 || got[0] != "pages/ledger-style.md" && got[0] != "pages/go-tests.md" {
		t.Errorf("a test file of the ledger package: %v", got)
	}
	res = q(Request{Paths: []string{"web/app.js"}})
	if res.Sufficient || len(res.Results) != 0 || res.Trace.Reason == "" {
		t.Errorf("nothing applies: %+v", res)
	}
}

func TestPathsRankFirstWithQuestion(t *testing.T) {
	q := appliesSpace(t)
	plain := q(Request{Question: "how do retries back off"})
	if len(plain.Results) == 0 || plain.Results[0].Path != "pages/retries.md" {
		t.Fatalf("without paths the best words win: %v", paths(plain))
	}
	scoped := q(Request{Question: "how do retries back off", Paths: []string{"internal/ledger/replay.go"}})
	got := paths(scoped)
	if len(got) < 3 || got[0] != "pages/ledger-replay.md" || got[1] != "pages/ledger-style.md" {
		t.Fatalf("pages that apply must come first: %v", got)
	}
	found := false
	for _, p := range got[2:] {
		found = found || p == "pages/retries.md"
	}
	if !found {
		t.Errorf("the question's own answer must follow: %v", got)
	}
	if one := q(Request{Question: "how do retries back off", Paths: []string{"internal/ledger/replay.go"}, K: 1}); len(one.Results) != 1 {
		t.Errorf("K bounds the results: %v", paths(one))
	}
}

func TestFilters(t *testing.T) {
	q := appliesSpace(t)
	res := q(Request{Paths: []string{"internal/ledger/replay.go"}, Since: testWhen.Add(-time.Hour)})
	if got := paths(res); len(got) != 1 || got[0] != "pages/ledger-replay.md" {
		t.Errorf("--since drops the older page: %v", got)
	}
	res = q(Request{Question: "retried writes idempotency", Topics: []string{"Operations"}})
	for _, h := range res.Results {
		if h.Path != "pages/retries.md" {
			t.Errorf("--topic operations let %s through", h.Path)
		}
	}
	res = q(Request{Question: "retried writes idempotency", Kinds: []string{content.KindSynthesis}})
	if res.Sufficient || len(res.Results) != 0 {
		t.Errorf("no synthesis page exists: %v", paths(res))
	}
}

func TestPathsBadInput(t *testing.T) {
	ctx, s := context.Background(), newSpace(t)
	e := openEngine(t, s)
	for _, p := range []string{"/etc/passwd", "../other/x.go"} {
		req := Request{Paths: []string{p}}
		if _, err := e.Query(ctx, req); err == nil {
			t.Errorf("path %q: want an error", p)
		}
	}
	if _, err := e.Query(ctx, Request{}); !errors.Is(err, ErrEmptyQuestion) {
		t.Errorf("no question and no paths: %v", err)
	}
}
