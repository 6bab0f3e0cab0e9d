package index

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// The benchmark corpus: benchPages pages of about five sections each, written
// from a small vocabulary with a Zipf-like distribution, indexed on disk as
// the retrieve package would flatten them (one "page" Doc and one "section"
// Doc per section).
const (
	benchPages    = 10000
	benchVocab    = 5000
	benchSections = 5
)

type corpus struct {
	rng   *rand.Rand
	zipf  *rand.Zipf
	vocab []string
}

func newCorpus(seed uint64) *corpus {
	rng := rand.New(rand.NewPCG(seed, seed))
	c := &corpus{rng: rng, zipf: rand.NewZipf(rng, 1.07, 2, benchVocab-1)}
	// The vocabulary is the same for every seed, so that questions drawn
	// from one corpus find pages written from another.
	vrng := rand.New(rand.NewPCG(0, 0))
	syll := []string{"ka", "lo", "mi", "nu", "ser", "tan", "vel", "dor", "pri", "est", "qua", "rin", "bo", "shi", "ga", "tem"}
	seen := map[string]bool{}
	for len(c.vocab) < benchVocab {
		var b strings.Builder
		for range 2 + vrng.IntN(3) {
			b.WriteString(syll[vrng.IntN(len(syll))])
		}
		if w := b.String(); !seen[w] {
			seen[w] = true
			c.vocab = append(c.vocab, w)
		}
	}
	return c
}

func (c *corpus) words(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(c.vocab[c.zipf.Uint64()])
		if c.rng.IntN(12) == 0 {
			b.WriteString(".")
		}
	}
	return b.String()
}

// page returns the Docs of one page: the whole page and its sections.
func (c *corpus) page(i int, rev string) []Doc {
	path := fmt.Sprintf("pages/p%05d.md", i)
	title := c.words(2 + c.rng.IntN(4))
	topics := []string{c.vocab[c.rng.IntN(50)], c.vocab[c.rng.IntN(50)]}
	summary := c.words(12)
	n := benchSections - 1 + c.rng.IntN(3)
	var docs []Doc
	var whole strings.Builder
	for s := range n {
		heading := c.words(2 + c.rng.IntN(2))
		body := c.words(60 + c.rng.IntN(140))
		whole.WriteString(body + "\n\n")
		anchor := fmt.Sprintf("s%d", s)
		docs = append(docs, Doc{ID: path + "#" + anchor, Path: path, Type: "section", PageKind: "page",
			Title: title, Heading: heading, Anchor: anchor, Topics: topics, Body: body,
			Revision: rev, Status: "active", Ord: s + 1})
	}
	return append(docs, Doc{ID: path, Path: path, Type: "page", PageKind: "page", Title: title,
		Topics: topics, Summary: summary, Body: whole.String(), Revision: rev, Status: "active",
		Inlinks: c.rng.IntN(20)})
}

func (c *corpus) question() string {
	return "how do I " + c.words(6+c.rng.IntN(6)) + "?"
}

var bench struct {
	once sync.Once
	dir  string
	ix   *Index
	err  error
}

// benchIndex builds the corpus index once per test binary run; TestMain
// removes it.
func benchIndex(b *testing.B) *Index {
	bench.once.Do(func() {
		// PT_INDEX_BENCH_DIR keeps the corpus index between runs, for
		// profiling; it is built when empty and never removed.
		keep := os.Getenv("PT_INDEX_BENCH_DIR")
		if keep != "" {
			bench.ix, bench.err = Open(keep)
			if bench.err != nil || bench.ix.Commit() != "" {
				return
			}
		} else {
			bench.dir, bench.err = os.MkdirTemp("", "pt-index-bench-")
			if bench.err != nil {
				return
			}
			bench.ix, bench.err = Open(bench.dir)
			if bench.err != nil {
				return
			}
		}
		start := time.Now()
		c := newCorpus(1)
		var docs []Doc
		for i := range benchPages {
			docs = append(docs, c.page(i, "r0")...)
			if len(docs) >= 3000 || i == benchPages-1 {
				if bench.err = bench.ix.Apply(context.Background(), "c0", docs, nil); bench.err != nil {
					return
				}
				docs = docs[:0]
			}
		}
		n, _ := bench.ix.Count()
		fmt.Fprintf(os.Stderr, "bench index: %d docs built in %v\n", n, time.Since(start).Round(time.Millisecond))
	})
	if bench.err != nil {
		b.Fatal(bench.err)
	}
	return bench.ix
}

func closeBenchIndex() {
	if bench.ix != nil {
		bench.ix.Close()
	}
	if bench.dir != "" {
		os.RemoveAll(bench.dir)
	}
}

func BenchmarkSearch(b *testing.B) {
	ix := benchIndex(b)
	c := newCorpus(2)
	qs := make([]string, 200)
	for i := range qs {
		qs[i] = c.question()
	}
	ctx := context.Background()
	for _, bc := range []struct {
		name string
		q    Query
	}{
		{"all", Query{Limit: 20}},
		{"sections", Query{Limit: 20, Types: []string{"section"}, ExcludeStatus: []string{"stale", "retracted", "expired"}}},
		{"pages", Query{Limit: 20, Types: []string{"page"}, OmitBody: true}},
		{"exact", Query{Limit: 20, exact: true}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			// Warm the snapshot's segments and caches before timing.
			for _, q := range qs[:20] {
				bc.q.Text = q
				if _, err := ix.Search(ctx, bc.q); err != nil {
					b.Fatal(err)
				}
			}
			b.ResetTimer()
			i := 0
			for b.Loop() {
				bc.q.Text = qs[i%len(qs)]
				i++
				hits, err := ix.Search(ctx, bc.q)
				if err != nil {
					b.Fatal(err)
				}
				if len(hits) == 0 {
					b.Fatalf("no hits for %q", bc.q.Text)
				}
			}
			if !bc.q.exact {
				b.ReportMetric(agreement(b, ix, bc.q, qs), "top10-agree")
			}
		})
	}
}

func BenchmarkApply(b *testing.B) {
	ix := benchIndex(b)
	c := newCorpus(3)
	ctx := context.Background()
	i := 0
	for b.Loop() {
		// Five Docs: one new page of four sections, replacing its earlier
		// version on later rounds, as an ingest batch would.
		docs := c.page(benchPages+i%50, fmt.Sprint("r", i))[:4]
		docs = append(docs, Doc{ID: "topics/t.md", Path: "topics/t.md", Type: "spoke", Title: "topic", Body: c.words(30)})
		if err := ix.Apply(ctx, fmt.Sprint("c", i), docs, nil); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// agreement is the share of the top ten hits that q, as planned, has in common
// with the exact disjunction over all clauses: what skipping common terms
// costs in ranking.
func agreement(b *testing.B, ix *Index, q Query, qs []string) float64 {
	ctx := context.Background()
	var same, all int
	for _, text := range qs {
		q.Text, q.Limit = text, 10
		got, err := ix.Search(ctx, q)
		if err != nil {
			b.Fatal(err)
		}
		q.exact = true
		want, err := ix.Search(ctx, q)
		if err != nil {
			b.Fatal(err)
		}
		q.exact = false
		in := map[string]bool{}
		for _, h := range want {
			in[h.ID] = true
		}
		for _, h := range got {
			if in[h.ID] {
				same++
			}
		}
		all += len(want)
	}
	return float64(same) / float64(all)
}
