package mcp

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptwiki/pt/retrieve"
	"github.com/ptwiki/pt/wiki"
	"github.com/ptwiki/pt/wiki/spacegen"
)

// benchSpace is a generated space of n pages, kept between runs in the
// temporary directory (it is deterministic for a seed).
func benchSpace(b *testing.B, n int) *wiki.Space {
	b.Helper()
	ctx := context.Background()
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("pt-bench-mcp-%d", n))
	if _, err := os.Stat(filepath.Join(dir, "kb.yaml")); err == nil {
		if s, err := wiki.Open(ctx, dir); err == nil {
			return s
		}
	}
	os.RemoveAll(dir)
	start := time.Now()
	s, err := spacegen.Generate(ctx, dir, spacegen.Options{Pages: n, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("generated %d pages in %s", n, time.Since(start))
	return s
}

// benchQuestions are mostly in the generated pages' vocabulary, so that
// most calls are answered and pack excerpts (an answered call costs more
// than a refused one); answeredShare reports the mix.
var benchQuestions = []string{
	"how do we rollback a canary deploy in the cluster",
	"what is the retry backoff for the queue worker",
	"who approves a schema migration on the replica",
	"meeting notes about budget",
	"which dashboard alert watches the quota limit",
	"what did the postmortem decide about failover",
	"how do we rotate credentials",
	"what caused the ledger outage",
}

// answeredShare is the percentage of benchQuestions the space answers.
func answeredShare(b *testing.B, s *wiki.Space) float64 {
	b.Helper()
	n := 0
	e := retrieve.Open(s, retrieve.Options{})
	defer e.Close()
	for _, q := range benchQuestions {
		res, err := e.Query(context.Background(), retrieve.Request{Question: q})
		if err != nil {
			b.Fatal(err)
		}
		if res.Sufficient {
			n++
		}
	}
	return 100 * float64(n) / float64(len(benchQuestions))
}

// BenchmarkHTTPQuery measures query_knowledge_base over streamable HTTP,
// with token auth, against a generated 10,000-page space: clients calls in
// parallel from their own sessions; it reports calls per second and the
// latency percentiles of one call.
//
//	go test ./mcp -run '^$' -bench HTTPQuery -benchtime 2000x
func BenchmarkHTTPQuery(b *testing.B) {
	const clients = 8
	s := benchSpace(b, 10000)
	defer s.Close()
	ctx := context.Background()
	answered := answeredShare(b, s) // also builds the index outside the timing
	ts := OpenTokens(s)
	name := fmt.Sprintf("bench-%d", time.Now().UnixNano())
	secret, _, err := ts.Create(name, ScopeRead, time.Now())
	if err != nil {
		b.Fatal(err)
	}
	defer ts.Revoke(name)
	srv := httptest.NewUnstartedServer(nil)
	e := retrieve.Open(s, retrieve.Options{})
	defer e.Close()
	h, err := Handler(NewServer(s, Options{Engine: e}), HTTPOptions{Addr: srv.Listener.Addr().String(), Tokens: ts, Rate: -1})
	if err != nil {
		b.Fatal(err)
	}
	srv.Config.Handler = h
	srv.Start()
	defer srv.Close()
	sessions := make([]*sdk.ClientSession, clients)
	for i := range sessions {
		sessions[i] = httpClient(b, srv.URL+DefaultPath, secret, "bench")
	}
	defer func() { // before srv.Close, which waits for the sessions' streams
		for _, cs := range sessions {
			cs.Close()
		}
	}()

	var next atomic.Int64
	lat := make([]time.Duration, b.N)
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= b.N {
					return
				}
				t0 := time.Now()
				res, err := sessions[c].CallTool(ctx, &sdk.CallToolParams{Name: ToolQuery, Arguments: map[string]any{"question": benchQuestions[i%len(benchQuestions)]}})
				lat[i] = time.Since(t0)
				if err != nil || res.IsError {
					b.Errorf("call %d: %v %v", i, err, res)
					return
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	slices.Sort(lat)
	pct := func(p float64) float64 {
		return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Microseconds()) / 1000
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "calls/s")
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
	b.ReportMetric(answered, "sufficient-%")
}

// BenchmarkQueryDirect is Engine.Query itself on the same space, called in
// parallel without MCP: the ceiling for BenchmarkHTTPQuery, with questions
// asked again (the engine keeps a search's hits) and new ones.
//
//	go test ./mcp -run '^$' -bench QueryDirect -benchtime 2000x
//	PT_BENCH_PAGES=100000 go test ./mcp -run '^$' -bench QueryDirect -benchtime 200x -cpuprofile cpu.out
func BenchmarkQueryDirect(b *testing.B) {
	s := benchSpace(b, benchPages(b))
	defer s.Close()
	ctx := context.Background()
	answered := answeredShare(b, s)
	e := retrieve.Open(s, retrieve.Options{})
	defer e.Close()
	for _, mix := range []string{"repeated", "new"} {
		b.Run("questions="+mix, func(b *testing.B) {
			question := func(i int) string { return benchQuestions[i%len(benchQuestions)] }
			if mix == "new" {
				question = func(i int) string { return fmt.Sprintf("%s zq%dx", benchQuestions[i%len(benchQuestions)], i) }
			}
			var next atomic.Int64
			b.ResetTimer()
			cpu0, cpuErr := procCPU(os.Getpid())
			start := time.Now()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					i := int(next.Add(1))
					if _, err := e.Query(ctx, retrieve.Request{Question: question(i)}); err != nil {
						b.Error(err)
						return
					}
				}
			})
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "calls/s")
			if cpu1, err := procCPU(os.Getpid()); cpuErr == nil && err == nil {
				b.ReportMetric(float64((cpu1-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/call")
			}
			b.ReportMetric(answered, "sufficient-%")
		})
	}
}
