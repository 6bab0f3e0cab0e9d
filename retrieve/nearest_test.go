package retrieve

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestQueryNearest: an insufficient answer names the pages the question
// came closest to (active ones only), and a sufficient one names none. In
// a space this small only a name the space never mentions refuses.
func TestQueryNearest(t *testing.T) {
	s := storageSpace(t)
	e := openEngine(t, s)
	ctx := context.Background()
	res, err := e.Query(ctx, Request{Question: "how do penguins rebuild their Igloo index before the Antarctic winter?", Now: testWhen})
	if err != nil {
		t.Fatal(err)
	}
	if res.Sufficient || len(res.Results) != 0 {
		t.Fatalf("want an insufficient answer, got %+v", res)
	}
	want := []Near{{Path: "pages/storage.md", Title: "Why the index is keyed by commit", Summary: "The derived index records the commit it reflects."}}
	if diff := cmp.Diff(want, res.Nearest); diff != "" {
		t.Errorf("nearest (-want +got):\n%s", diff)
	}
	res, err = e.Query(ctx, Request{Question: "which git commit does the full-text index reflect?", Now: testWhen})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Sufficient || res.Nearest == nil || len(res.Nearest) != 0 {
		t.Errorf("sufficient %v, nearest %#v: want a sufficient answer with an empty nearest", res.Sufficient, res.Nearest)
	}
}
