package retrieve

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/ptwiki/pt/wiki/spacegen"
)

// BenchmarkQueryWarm measures Query on a generated space with a warm,
// current index (the MCP server's case), and reports p50 and p99 over the
// iterations. PT_BENCH_PAGES sets the size (default 10000).
//
//	go test ./retrieve/ -run '^$' -bench QueryWarm -benchtime 400x
func BenchmarkQueryWarm(b *testing.B) {
	n := 10000
	if v, err := strconv.Atoi(os.Getenv("PT_BENCH_PAGES")); err == nil {
		n = v
	}
	ctx := context.Background()
	s, err := spacegen.Generate(ctx, b.TempDir(), spacegen.Options{Pages: n, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	defer CloseIndexes()
	start := time.Now()
	if _, err := Query(ctx, s, Request{Question: "warm up"}); err != nil {
		b.Fatal(err)
	}
	b.Logf("%d pages: first query (index build) %v", n, time.Since(start))
	qs := []string{"how is the release process run", "who owns the storage migration plan", "what did the retro decide about flaky tests",
		"why was the cache invalidated", "deploy pipeline rollback steps", "meeting notes about budget", "onboarding checklist for new engineers"}
	var lat []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		if _, err := Query(ctx, s, Request{Question: qs[i%len(qs)] + fmt.Sprint(" ", i%3)}); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[min(len(lat)-1, len(lat)*99/100)].Microseconds())/1000, "p99-ms")
}

// BenchmarkPlainBaselineBuild measures what `pt eval` adds for its plain
// BM25 baseline: an in-memory index of every page, built once per run.
//
//	go test ./retrieve/ -run '^$' -bench PlainBaselineBuild -benchtime 3x
func BenchmarkPlainBaselineBuild(b *testing.B) {
	n := 10000
	if v, err := strconv.Atoi(os.Getenv("PT_BENCH_PAGES")); err == nil {
		n = v
	}
	ctx := context.Background()
	s, err := spacegen.Generate(ctx, b.TempDir(), spacegen.Options{Pages: n, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
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
