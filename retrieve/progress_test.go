package retrieve

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/ptwiki/pt/wiki/spacegen"
)

// TestProgressFollowsTheBuild pins Options.Progress: a first query builds
// the index and reports every changed file read, ending at total of
// total; a second query at the same head builds nothing and reports
// nothing.
func TestProgressFollowsTheBuild(t *testing.T) {
	ctx := context.Background()
	s, err := spacegen.Generate(ctx, t.TempDir(), spacegen.Options{Pages: 60, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var calls [][2]int
	eng := Open(s, Options{IndexDir: filepath.Join(t.TempDir(), "index"), Progress: func(done, total int) { calls = append(calls, [2]int{done, total}) }})
	defer eng.Close()
	if _, err := eng.Query(ctx, Request{Question: "cache rollback"}); err != nil {
		t.Fatal(err)
	}
	if len(calls) < 60 {
		t.Fatalf("%d progress calls for a build of more than 60 files", len(calls))
	}
	total := calls[0][1]
	for i, c := range calls {
		if c[1] != total || c[0] > total || (i > 0 && c[0] < calls[i-1][0]) {
			t.Fatalf("call %d: %d of %d after %v", i, c[0], c[1], calls[max(i-1, 0)])
		}
	}
	if last := calls[len(calls)-1]; last[0] != total {
		t.Errorf("last call %v, want %d of %d", last, total, total)
	}
	n := len(calls)
	if _, err := eng.Query(ctx, Request{Question: "leader election"}); err != nil {
		t.Fatal(err)
	}
	if len(calls) != n {
		t.Errorf("a query at the same head reported %v", calls[n:])
	}
}
