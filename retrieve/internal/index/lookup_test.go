package index

import (
	"context"
	"slices"
	"testing"
)

// Lookup finds dictionary Docs by any of their exact terms, is replaced and
// deleted with their page, and leaves the text search's statistics alone.
func TestLookup(t *testing.T) {
	backends(t, func(t *testing.T, ix *Index) {
		ctx := context.Background()
		page := Doc{ID: "pages/gov.md", Path: "pages/gov.md", Type: "page", Title: "Governance", Body: "A working group (WG) is formed by a charter."}
		wg := Doc{ID: "pages/gov.md#acronym:wg", Path: "pages/gov.md", Type: "acronym", Acronym: "wg\twork group", Expands: []string{"work", "group"}}
		apply(t, ix, "c1", []Doc{page, wg})
		before, err := ix.Stats(ctx, []string{"work"})
		if err != nil {
			t.Fatal(err)
		}
		docs, err := ix.Lookup(ctx, "acronym", []string{"how", "group"}, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(docs) != 1 || docs[0].Acronym != "wg\twork group" || docs[0].Path != "pages/gov.md" {
			t.Fatalf("Lookup = %+v", docs)
		}
		if docs, _ := ix.Lookup(ctx, "acronym", []string{"charter"}, 10); len(docs) != 0 {
			t.Errorf("a text word found a dictionary Doc: %+v", docs)
		}
		if docs, _ := ix.Lookup(ctx, "page", []string{"group"}, 10); len(docs) != 0 {
			t.Errorf("the type filter let through %+v", docs)
		}
		hits, err := ix.Search(ctx, Query{Text: "work group"})
		if err != nil {
			t.Fatal(err)
		}
		if slices.ContainsFunc(hits, func(h Hit) bool { return h.Type == "acronym" }) {
			t.Errorf("text search returned a dictionary Doc: %+v", hits)
		}
		apply(t, ix, "c2", []Doc{{ID: "pages/other.md", Path: "pages/other.md", Type: "page", Body: "other"}})
		after, _ := ix.Stats(ctx, []string{"work"})
		if before.N != 1 || after.N != 2 || before.DF["work"] != 1 {
			t.Errorf("stats count the dictionary: before %+v, after %+v", before, after)
		}
		apply(t, ix, "c3", nil, "pages/gov.md")
		if docs, _ := ix.Lookup(ctx, "acronym", []string{"group"}, 10); len(docs) != 0 {
			t.Errorf("deleting the page kept its dictionary Docs: %+v", docs)
		}
	})
}
