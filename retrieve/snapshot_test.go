package retrieve

import (
	"context"
	"testing"
	"time"

	"github.com/ptwiki/pt/retrieve/internal/index"
)

// A query that finds the holder's snapshot behind head waits for the holder
// to catch up when indexing in memory would cost more, and reads it then.
func TestQueryWaitsForHolderToCatchUp(t *testing.T) {
	ctx := context.Background()
	s := storageSpace(t)
	eng := openEngine(t, s)
	if err := eng.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	other := holdIndex(t, eng)
	put(t, s, map[string]string{"pages/tea.md": "# Tea\n\nGreen tea on Mondays.\n"})

	eng.buildPerUnit = time.Second // a space whose memory build would take long
	caught := make(chan error, 1)
	go func() {
		time.Sleep(100 * time.Millisecond)
		caught <- update(ctx, s, other, mustHead(t, s), nil)
	}()
	res, err := eng.Query(ctx, Request{Question: "green tea mondays", Now: testWhen})
	if uerr := <-caught; uerr != nil {
		t.Fatal(uerr)
	}
	if err != nil || !res.Sufficient || res.Trace.Index != "snapshot" || res.Results[0].Path != "pages/tea.md" {
		t.Fatalf("query while the holder catches up: %+v %v", res, err)
	}
}

// When the other holder exits and this process takes the disk index over,
// a query still reading the index in memory that stood in finishes on it.
func TestTakeoverLeavesStandInOpen(t *testing.T) {
	ctx := context.Background()
	s := storageSpace(t)
	eng := openEngine(t, s)
	other := holdIndex(t, eng)
	put(t, s, map[string]string{"pages/tea.md": "# Tea\n\nGreen tea on Mondays.\n"})
	eng.busyRetry = 0

	head := mustHead(t, s)
	h, err := eng.acquire(ctx, head)
	if err != nil || h.kind != "memory" {
		t.Fatalf("acquire beside the holder: %+v %v", h, err)
	}
	defer h.release()
	other.Close()
	h2, err := eng.acquire(ctx, head)
	if err != nil || h2.kind != "disk" {
		t.Fatalf("acquire after the holder left: %+v %v", h2, err)
	}
	defer h2.release()
	if hits, err := h.ix.Search(ctx, index.Query{Text: "green tea"}); err != nil || len(hits) == 0 {
		t.Errorf("search on the replaced stand-in: %v %v", hits, err)
	}
}
