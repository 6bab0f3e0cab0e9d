package index

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestIndexIsAFunctionOfItsDocs applies random batches (new pages, pages
// rewritten, pages deleted) one by one and checks that statistics and
// scores then equal those of an index given the surviving pages at once:
// deleted documents and segment merges must leave no trace.
func TestIndexIsAFunctionOfItsDocs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	words := []string{"index", "commit", "storage", "deploy", "freeze", "release", "runbook", "cache", "ledger", "payment", "retry", "queue"}
	for seed := range uint64(8) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(seed, 17))
			text := func(n int) string {
				var s string
				for range n {
					s += words[rng.IntN(len(words))] + " "
				}
				return s
			}
			page := func(p string) []Doc {
				docs := []Doc{{ID: p, Path: p, Type: "page", Title: text(2), Body: text(5 + rng.IntN(30)), Status: "active", Topics: []string{text(1), text(1)}}}
				for i := range rng.IntN(3) {
					docs = append(docs, Doc{ID: fmt.Sprintf("%s#s%d", p, i), Path: p, Type: "section", Title: text(2), Heading: text(2), Body: text(3 + rng.IntN(20)), Status: "active"})
				}
				return docs
			}
			inc, err := Open(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			defer inc.Close()
			live := map[string][]Doc{}
			for b := range 30 {
				var up []Doc
				var del []string
				for range 1 + rng.IntN(4) {
					p := fmt.Sprintf("pages/p%d.md", rng.IntN(12))
					if _, ok := live[p]; ok && rng.IntN(3) == 0 {
						delete(live, p)
						del = append(del, p)
						continue
					}
					if slices.Contains(del, p) || slices.ContainsFunc(up, func(d Doc) bool { return d.Path == p }) {
						continue
					}
					live[p] = page(p)
					up = append(up, live[p]...)
				}
				apply(t, inc, fmt.Sprint("c", b), up, del...)
			}
			fresh, err := OpenMemory()
			if err != nil {
				t.Fatal(err)
			}
			defer fresh.Close()
			var all []Doc
			for _, p := range slices.Sorted(func(yield func(string) bool) {
				for p := range live {
					if !yield(p) {
						return
					}
				}
			}) {
				all = append(all, live[p]...)
			}
			apply(t, fresh, "c29", all)
			for _, q := range []string{"index commit", "storage freeze payment", "retry queue cache ledger deploy"} {
				for _, typ := range []string{"page", "section"} {
					query := Query{Text: q, Types: []string{typ}, Limit: 5}
					if diff := cmp.Diff(hitsFor(t, fresh, query), hitsFor(t, inc, query)); diff != "" {
						t.Errorf("%s %q: incremental differs from fresh (-fresh +incremental):\n%s", typ, q, diff)
					}
				}
				want, err := fresh.Stats(ctx, Terms(q))
				if err != nil {
					t.Fatal(err)
				}
				got, err := inc.Stats(ctx, Terms(q))
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("stats %q (-fresh +incremental):\n%s", q, diff)
				}
			}
		})
	}
}
