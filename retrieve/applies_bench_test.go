package retrieve

import (
	"context"
	"fmt"
	"testing"

	"github.com/ptwiki/pt/content"
)

// BenchmarkPathsQuery measures a path-only query ("what applies to this
// file") on a space of 2,000 pages, 200 of them scoped to a package each:
// warm, at a head already asked about; cold, with every cache emptied, as
// a first query after a start reads every page once.
func BenchmarkPathsQuery(b *testing.B) {
	for _, cold := range []bool{false, true} {
		name := "warm"
		if cold {
			name = "cold"
		}
		b.Run(name, func(b *testing.B) { benchPaths(b, cold) })
	}
}

func benchPaths(b *testing.B, cold bool) {
	s := newSpace(b)
	files := map[string]string{}
	for i := range 2000 {
		m := content.Meta{Title: fmt.Sprintf("Page %d", i), Topics: []string{fmt.Sprintf("t%d", i%20)}}
		if i%10 == 0 {
			m.AppliesTo = []string{fmt.Sprintf("internal/pkg%d/**", i/10)}
		}
		files[fmt.Sprintf("pages/p%04d.md", i)] = page(m, fmt.Sprintf("Page %d says something about subsystem %d and its conventions.\n", i, i%37))
	}
	put(b, s, files)
	ctx := context.Background()
	req := Request{Paths: []string{"internal/pkg7/replay.go"}}
	e := openEngine(b, s)
	if res, err := e.Query(ctx, req); err != nil || len(res.Results) != 1 {
		b.Fatalf("%v %+v", err, res)
	}
	b.ResetTimer()
	for range b.N {
		if cold {
			e.cache.Lock()
			clear(e.cache.commits)
			clear(e.cache.globs)
			clear(e.cache.pages)
			e.cache.Unlock()
		}
		if _, err := e.Query(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}
