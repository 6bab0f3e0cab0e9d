package wiki_test

import (
	"context"
	"testing"
	"time"

	"github.com/ptwiki/pt/wiki"
)

func TestMemoIsOwnedByItsSpace(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, _, err := wiki.Init(ctx, dir, wiki.InitOptions{Name: "memo", When: t0, Clock: wiki.SteppingClock(t0, time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	builds := 0
	build := func() any { builds++; return &builds }
	if s.Memo("k", build) != s.Memo("k", build) || builds != 1 {
		t.Fatalf("a key's value was built %d times, want once", builds)
	}
	s.Memo("other", build)
	other, err := wiki.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	other.Memo("k", build)
	if builds != 3 {
		t.Fatalf("builds = %d, want 3: each key, and each Space, keeps its own", builds)
	}
}
