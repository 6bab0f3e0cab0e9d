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
	if err := Refresh(ctx, s); err != nil {
		t.Fatal(err)
	}
	if st, err := Status(ctx, s); err != nil || !st.Current || st.Docs == 0 {
		t.Fatalf("status after the first refresh: %+v %v", st, err)
	}
	put(t, s, map[string]string{"pages/tea.md": "# Tea\n\nGreen tea on Mondays.\n"})
	if st, err := Status(ctx, s); err != nil || st.Current {
		t.Fatalf("status after a commit: %+v %v, want behind", st, err)
	}
	if err := Refresh(ctx, s); err != nil {
		t.Fatal(err)
	}
	if st, err := Status(ctx, s); err != nil || !st.Current {
		t.Fatalf("status after the second refresh: %+v %v", st, err)
	}

	other := holdIndex(t, s)
	put(t, s, map[string]string{"pages/coffee.md": "# Coffee\n\nFilter coffee on Tuesdays.\n"})
	if err := Refresh(ctx, s); err != nil {
		t.Fatalf("refresh beside another holder: %v", err)
	}
	open.Lock()
	mem := len(open.mem)
	open.Unlock()
	if mem != 0 || other.Commit() == string(mustHead(t, s)) {
		t.Errorf("refresh beside another holder built %d memory indexes or moved the holder's index", mem)
	}
}
