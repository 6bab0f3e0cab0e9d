package retrieve

import (
	"context"
	"testing"
	"time"

	"github.com/ptwiki/pt/retrieve/internal/index"
)

// A rebuild in the process of a server waits for the queries reading the
// index instead of closing it under them: the query in flight still
// searches, and the rebuild finishes once it is released.
func TestRebuildWaitsForRunningQuery(t *testing.T) {
	ctx := context.Background()
	s := storageSpace(t)
	eng := openEngine(t, s)
	h, err := eng.acquire(ctx, mustHead(t, s))
	if err != nil {
		t.Fatal(err)
	}
	if h.kind != "disk" {
		t.Fatalf("index kind %q, want disk", h.kind)
	}
	done := make(chan error, 1)
	go func() { done <- eng.Rebuild(ctx) }()
	select {
	case err := <-done:
		h.release()
		t.Fatalf("rebuild finished (%v) while a query was reading the index", err)
	case <-time.After(300 * time.Millisecond):
	}
	hits, err := h.ix.Search(ctx, index.Query{Text: "commit reflects", Types: []string{typeSection}, Limit: 5})
	if err != nil || len(hits) == 0 {
		t.Errorf("search during the rebuild: %d hits, %v", len(hits), err)
	}
	h.release()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("rebuild: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("rebuild still waiting after the query was released")
	}
	res, err := eng.Query(ctx, Request{Question: "which commit does the index reflect", Now: testWhen})
	if err != nil || !res.Sufficient || res.Trace.Index != "disk" {
		t.Fatalf("query after the rebuild: %+v, %v", res, err)
	}
}
