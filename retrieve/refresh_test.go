package retrieve

import (
	"context"
	"testing"
)

// Refresh keeps the on-disk index at head without a query, and leaves an
// index another process holds alone (no stand-in built in memory).
func TestRefreshFollowsHead(t *testing.T) {
	ctx := context.Background()
	s := storageSpace(t)
	eng := openEngine(t, s)
	if err := eng.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if st, err := eng.Status(ctx); err != nil || !st.Current || st.Docs == 0 {
		t.Fatalf("status after the first refresh: %+v %v", st, err)
	}
	put(t, s, map[string]string{"pages/tea.md": "# Tea\n\nGreen tea on Mondays.\n"})
	if st, err := eng.Status(ctx); err != nil || st.Current {
		t.Fatalf("status after a commit: %+v %v, want behind", st, err)
	}
	if err := eng.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if st, err := eng.Status(ctx); err != nil || !st.Current {
		t.Fatalf("status after the second refresh: %+v %v", st, err)
	}

	other := holdIndex(t, eng)
	put(t, s, map[string]string{"pages/coffee.md": "# Coffee\n\nFilter coffee on Tuesdays.\n"})
	if err := eng.Refresh(ctx); err != nil {
		t.Fatalf("refresh beside another holder: %v", err)
	}
	if eng.standIn() || other.Commit() == string(mustHead(t, s)) {
		t.Errorf("refresh beside another holder built a memory index or moved the holder's index")
	}
}

// Refresh on a timer and queries share one index and one space in a server;
// run together (under -race in make check), they agree on what is indexed.
func TestRefreshBesideQueries(t *testing.T) {
	ctx := context.Background()
	s := storageSpace(t)
	eng := openEngine(t, s)
	stop := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		for {
			select {
			case <-stop:
				done <- nil
				return
			default:
			}
			if err := eng.Refresh(ctx); err != nil {
				done <- err
				return
			}
		}
	}()
	for i, drink := range []string{"tea", "coffee", "cocoa"} {
		put(t, s, map[string]string{"pages/" + drink + ".md": "# " + drink + "\n\nWe drink " + drink + " on day " + string(rune('1'+i)) + ".\n"})
		res, err := eng.Query(ctx, Request{Question: "drink " + drink, Now: testWhen})
		if err != nil || !res.Sufficient || res.Results[0].Path != "pages/"+drink+".md" {
			t.Fatalf("query for %s beside refreshes: %+v %v", drink, res, err)
		}
	}
	close(stop)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
