package lint

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki"
)

// TestLoadHoldsNoText pins that a run keeps what the checks need of each
// page, not the pages: a snapshot of 8 MB of text retains a small part of
// it, so that lint over a large space is bounded by its number of pages.
func TestLoadHoldsNoText(t *testing.T) {
	ctx := context.Background()
	when := time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC)
	s, _, err := wiki.Init(ctx, t.TempDir(), wiki.InitOptions{Name: "memory", When: when})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const pages, size = 200, 40 << 10
	_, err = s.Apply(ctx, wiki.Batch{Kind: wiki.KindImport, Title: "large pages", ApprovedBy: "dana", When: when},
		func(ctx context.Context, tx *wiki.Tx) error {
			for i := range pages {
				var b strings.Builder
				fmt.Fprintf(&b, "# Page %d\n\nSee [the next](p%d.md).\n", i, (i+1)%pages)
				for j := 0; b.Len() < size; j++ {
					if j%100 == 0 {
						fmt.Fprintf(&b, "\n## Part %d of %d\n\n", j, i)
					}
					fmt.Fprintf(&b, "The cache of shard %d rolls back after %d retries. ", i*j, j)
				}
				m := content.Meta{Title: fmt.Sprintf("Page %d", i), Kind: content.KindPage, Topics: []string{"cache"},
					Author: content.Author{Kind: content.AuthorHuman, Name: "dana"}, Created: when, Updated: when}
				if _, err := tx.Put(ctx, fmt.Sprintf("pages/p%d.md", i), content.NewPage(m, []byte(b.String())), wiki.RolePage); err != nil {
					return err
				}
			}
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	head, err := s.Head(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// The repository caches the objects it reads: read them once first,
	// so that what is measured is what the snapshot holds.
	es, err := s.List(ctx, head, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		if _, err := s.ReadBlob(ctx, e.Blob); err != nil {
			t.Fatal(err)
		}
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	snap, err := load(ctx, s, head, nil)
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if n := len(snap.pages); n < pages {
		t.Fatalf("loaded %d pages, want at least %d", n, pages)
	}
	retained := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	if text := int64(pages * size); retained > text/8 {
		t.Errorf("a snapshot of %d KB of pages retains %d KB, want at most %d KB", text>>10, retained>>10, text>>13)
	}
	runtime.KeepAlive(snap)
}
