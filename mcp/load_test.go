package mcp

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkServeQuery is query_knowledge_base under load as a developer's
// agents put it: a separate `pt serve --http --auth none` process with its
// default rate limit, 8 client sessions calling in parallel, against a
// generated space of $PT_BENCH_PAGES pages (10,000 unless set). It
// reports calls per second, the latency percentiles of one call, and the
// server's peak RSS (Linux).
//
//	make bench-mcp                       # 10,000 pages
//	PT_BENCH_PAGES=100000 make bench-mcp
func BenchmarkServeQuery(b *testing.B) {
	const clients = 8
	pages := 10000
	if v := os.Getenv("PT_BENCH_PAGES"); v != "" {
		var err error
		if pages, err = strconv.Atoi(v); err != nil || pages <= 0 {
			b.Fatalf("PT_BENCH_PAGES=%q: want a number of pages", v)
		}
	}
	s := benchSpace(b, pages)
	answered := answeredShare(b, s) // also builds the index outside the timing
	dir := s.Dir()
	s.Close()
	url, proc := startServe(b, buildPT(b), dir, "--auth", "none")
	sessions := make([]*sdk.ClientSession, clients)
	for i := range sessions {
		sessions[i] = localClient(b, url, "bench")
	}
	ctx := context.Background()
	ask := func(c, i int) time.Duration {
		t0 := time.Now()
		res, err := sessions[c].CallTool(ctx, &sdk.CallToolParams{Name: ToolQuery, Arguments: map[string]any{"question": benchQuestions[i%len(benchQuestions)]}})
		if err != nil || res.IsError {
			b.Errorf("call %d: %v %v", i, err, res)
		}
		return time.Since(t0)
	}
	for c := range clients { // the server's first calls open its caches
		ask(c, c)
	}
	var next atomic.Int64
	lat := make([]time.Duration, b.N)
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1)) - 1; i < b.N && !b.Failed(); i = int(next.Add(1)) - 1 {
				lat[i] = ask(c, i)
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
	if kb, err := peakRSS(proc.Pid); err == nil {
		b.ReportMetric(float64(kb)/1024, "server-MB")
	}
	for _, cs := range sessions {
		cs.Close()
	}
}

// peakRSS is a process's peak resident set size in KiB (VmHWM, Linux).
func peakRSS(pid int) (int, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			return strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
		}
	}
	return 0, fmt.Errorf("no VmHWM in /proc/%d/status", pid)
}
