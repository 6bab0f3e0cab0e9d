package index

import (
	"context"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSearchesDoNotInterfere runs the same questions twice, in opposite
// orders, with filters that make bluge advance searchers, and expects the same
// hits: bluge recycles postings iterators across searches of a snapshot, and a
// misuse of that pool (see termsQuery) shows as searches that disturb later
// ones.
func TestSearchesDoNotInterfere(t *testing.T) {
	backends(t, func(t *testing.T, ix *Index) {
		ix.exactPostings = 0 // take the split path, which advances searchers too
		c := newCorpus(4)
		var docs []Doc
		for i := range 250 {
			docs = append(docs, c.page(i, "r0")...)
		}
		apply(t, ix, "c0", docs)
		qs := make([]Query, 200)
		for i := range qs {
			qs[i] = Query{Text: c.question(), Limit: 10, OmitBody: true}
			if i%2 == 0 {
				qs[i].Types = []string{"page"}
			}
		}
		ctx := context.Background()
		first := make([][]Hit, len(qs))
		for i, q := range qs {
			hits, err := ix.Search(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			first[i] = hits
		}
		for i, q := range slices.Backward(qs) {
			hits, err := ix.Search(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(first[i], hits); diff != "" {
				t.Fatalf("question %d gave other hits the second time (-first +second):\n%s", i, diff)
			}
		}
	})
}
