package index

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSearchCache: a search repeated on unchanged content answers from the
// cache exactly what it answered before, a caller that edits its hits does
// not edit the next caller's, and an Apply is seen by the next search.
func TestSearchCache(t *testing.T) {
	backends(t, func(t *testing.T, ix *Index) {
		apply(t, ix, "c1", storagePage("r1", "alpha"))
		q := Query{Text: "installer linux alpha", Limit: 5}
		first := hitsFor(t, ix, q)
		if len(first) == 0 {
			t.Fatal("no hits")
		}
		if _, ok := ix.hits.get(ix.hits.generation(), q.key()); !ok {
			t.Fatal("the search was not kept")
		}
		first[0].Score, first[0].Body = -1, "edited by a caller"
		second := hitsFor(t, ix, q)
		if second[0].Score == -1 || second[0].Body == "edited by a caller" {
			t.Fatal("a caller's edit reached the cache")
		}
		if third := hitsFor(t, ix, q); !cmp.Equal(second, third) {
			t.Errorf("cached hits differ:\n%s", cmp.Diff(second, third))
		}
		apply(t, ix, "c2", storagePage("r2", "beta"))
		after := hitsFor(t, ix, q)
		for _, h := range after {
			if h.Revision != "r2" {
				t.Fatalf("after an Apply the search answered revision %s, want r2", h.Revision)
			}
		}
		other := Query{Text: "installer linux beta", Limit: 5}
		if hits := hitsFor(t, ix, other); len(hits) == 0 || hits[0].Revision != "r2" {
			t.Errorf("the new content is not found: %v", ids(hits))
		}
	})
}
