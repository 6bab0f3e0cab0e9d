package retrieve

import (
	"context"
	"testing"
	"time"
)

// A query that finds the holder's snapshot behind head waits for the holder
// to catch up when indexing in memory would cost more, and reads it then.
func TestQueryWaitsForHolderToCatchUp(t *testing.T) {
	ctx := context.Background()
	s := storageSpace(t)
	if err := Refresh(ctx, s); err != nil {
		t.Fatal(err)
	}
	other := holdIndex(t, s)
	put(t, s, map[string]string{"pages/tea.md": "# Tea\n\nGreen tea on Mondays.\n"})

	saved := buildPerUnit
	buildPerUnit = time.Second // a space whose memory build would take long
	defer func() { buildPerUnit = saved }()
	caught := make(chan error, 1)
	go func() {
		time.Sleep(100 * time.Millisecond)
		caught <- update(ctx, s, other, mustHead(t, s))
	}()
	res, err := Query(ctx, s, Request{Question: "green tea mondays", Now: testWhen})
	if uerr := <-caught; uerr != nil {
		t.Fatal(uerr)
	}
	if err != nil || !res.Sufficient || res.Trace.Index != "snapshot" || res.Results[0].Path != "pages/tea.md" {
		t.Fatalf("query while the holder catches up: %+v %v", res, err)
	}
}
