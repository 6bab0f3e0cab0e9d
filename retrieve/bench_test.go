package retrieve

import (
	"context"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/ptwiki/pt/retrieve/internal/index"
	"github.com/ptwiki/pt/wiki"
	"github.com/ptwiki/pt/wiki/spacegen"
)

// BenchmarkQueryWarm measures Query on a generated space with a warm,
// current index (the MCP server's case), and reports p50 and p99 over the
// iterations. PT_BENCH_PAGES sets the size (default 10000).
//
//	go test ./retrieve/ -run '^$' -bench QueryWarm -benchtime 390x
func BenchmarkQueryWarm(b *testing.B) {
	n, s := benchSpace(b)
	defer s.Close()
	ctx := context.Background()
	eng := Open(s, Options{})
	defer eng.Close()
	start := time.Now()
	if _, err := eng.Query(ctx, Request{Question: "warm up"}); err != nil {
		b.Fatal(err)
	}
	b.Logf("%d pages: first query (index build) %v", n, time.Since(start))
	// Questions in the generated pages' vocabulary, which the space
	// answers (the answered path packs excerpts too), and questions in
	// other words, which it refuses; sufficient-% reports the mix.
	qs := []string{"how do we rollback a canary deploy in the cluster", "what is the retry backoff for the queue worker",
		"who approves a schema migration on the replica", "which dashboard alert watches the quota limit",
		"what did the postmortem decide about failover", "meeting notes about budget", "how is the certificate rotation secret kept in the vault",
		"how is the release process run", "who owns the storage migration plan", "what did the retro decide about flaky tests",
		"why was the cache invalidated", "deploy pipeline rollback steps", "onboarding checklist for new engineers"}
	var lat []time.Duration
	answered := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		// Punctuation varies the text, not the terms: after the first
		// round the per-blob and per-snapshot caches are warm, as in a
		// server answering its team's questions.
		res, err := eng.Query(ctx, Request{Question: qs[i%len(qs)] + []string{"", "?", "!"}[i%3]})
		if err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t0))
		if res.Sufficient {
			answered++
		}
	}
	b.StopTimer()
	b.ReportMetric(100*float64(answered)/float64(b.N), "sufficient-%")
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[min(len(lat)-1, len(lat)*99/100)].Microseconds())/1000, "p99-ms")
}

// BenchmarkPlainBaselineBuild measures what `pt eval` adds for its plain
// BM25 baseline: an in-memory index of every page, built once per run.
//
//	go test ./retrieve/ -run '^$' -bench PlainBaselineBuild -benchtime 3x
func BenchmarkPlainBaselineBuild(b *testing.B) {
	_, s := benchSpace(b)
	defer s.Close()
	ctx := context.Background()
	head, err := s.Head(ctx)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		plain, err := newPlainBM25(ctx, s, head)
		if err != nil {
			b.Fatal(err)
		}
		plain.Close()
	}
}

// benchSpace generates the benchmarks' space: PT_BENCH_PAGES pages
// (default 10000), seed 1.
func benchSpace(b *testing.B) (int, *wiki.Space) {
	b.Helper()
	n := 10000
	if v, err := strconv.Atoi(os.Getenv("PT_BENCH_PAGES")); err == nil {
		n = v
	}
	s, err := spacegen.Generate(context.Background(), b.TempDir(), spacegen.Options{Pages: n, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	return n, s
}

// BenchmarkQueryBesideHolder measures a cold query (a new pt query-kb
// process) on a space whose index another process holds at head, as a
// running pt serve does: each iteration opens an Engine, which opens the
// holder's snapshot and answers. It also reports, once,
// what indexing the space in memory costs, which is what the query paid
// before it could read the holder's snapshot.
//
//	go test ./retrieve/ -run '^$' -bench QueryBesideHolder -benchtime 20x
func BenchmarkQueryBesideHolder(b *testing.B) {
	n, s := benchSpace(b)
	defer s.Close()
	ctx := context.Background()
	eng := Open(s, Options{})
	defer eng.Close()
	if err := eng.Refresh(ctx); err != nil {
		b.Fatal(err)
	}
	holdIndex(b, eng)
	q := Request{Question: "which dashboard alert watches the quota limit"}
	// What a query without the snapshot pays first: the space indexed in
	// memory (the stand-in acquire builds).
	t0 := time.Now()
	mem, err := index.OpenMemory()
	if err != nil {
		b.Fatal(err)
	}
	if err := update(ctx, s, mem, mustHead(b, s), nil); err != nil {
		b.Fatal(err)
	}
	mem.Close()
	b.Logf("%d pages: indexing the space in memory instead: %v", n, time.Since(t0))

	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		cold := Open(s, Options{})
		res, err := cold.Query(ctx, q)
		if err != nil || res.Trace.Index != "snapshot" {
			b.Fatalf("query beside the holder: %+v %v", res.Trace, err)
		}
		b.StopTimer()
		cold.Close()
		b.StartTimer()
	}
}
