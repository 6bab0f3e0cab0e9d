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
// generated space of $PT_BENCH_PAGES pages (10,000 unless set), with
// questions asked again and with new questions. It reports calls per
// second, the latency percentiles of one call, and the server's peak RSS
// (Linux).
//
//	make bench-mcp                       # 10,000 pages
//	PT_BENCH_PAGES=100000 make bench-mcp
func BenchmarkServeQuery(b *testing.B) {
	s := benchSpace(b, benchPages(b))
	answered := answeredShare(b, s) // also builds the index outside the timing
	dir := s.Dir()
	s.Close()
	pt := buildPT(b)
	// The server keeps the hits of a search for as long as the space does
	// not change, so a question asked again costs less than a new one:
	// "repeated" cycles benchQuestions, "new" makes every question one the
	// server has not seen (a word that matches nothing, appended).
	for _, mix := range []string{"repeated", "new"} {
		b.Run("questions="+mix, func(b *testing.B) {
			question := func(i int) string { return benchQuestions[i%len(benchQuestions)] }
			if mix == "new" {
				question = func(i int) string { return fmt.Sprintf("%s zq%dx", benchQuestions[i%len(benchQuestions)], i) }
			}
			serveLoad(b, pt, dir, question)
			b.ReportMetric(answered, "sufficient-%")
		})
	}
}

// benchPages is the size of the benchmarks' space: $PT_BENCH_PAGES, or
// 10,000 pages.
func benchPages(b *testing.B) int {
	v := os.Getenv("PT_BENCH_PAGES")
	if v == "" {
		return 10000
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		b.Fatalf("PT_BENCH_PAGES=%q: want a number of pages", v)
	}
	return n
}

// serveLoad runs pt serve on dir and calls query_knowledge_base b.N
// times from 8 sessions in parallel, asking question(i) on call i.
func serveLoad(b *testing.B, pt, dir string, question func(int) string) {
	const clients = 8
	url, proc := startServe(b, pt, dir, "--auth", "none")
	sessions := make([]*sdk.ClientSession, clients)
	for i := range sessions {
		sessions[i] = localClient(b, url, "bench")
	}
	ctx := context.Background()
	ask := func(c int, q string) time.Duration {
		t0 := time.Now()
		res, err := sessions[c].CallTool(ctx, &sdk.CallToolParams{Name: ToolQuery, Arguments: map[string]any{"question": q}})
		if err != nil || res.IsError {
			b.Errorf("%q: %v %v", q, err, res)
		}
		return time.Since(t0)
	}
	for c := range clients { // the server's first calls open its caches
		ask(c, "warm up "+strconv.Itoa(c))
	}
	var next atomic.Int64
	lat := make([]time.Duration, b.N)
	var wg sync.WaitGroup
	b.ResetTimer()
	cpu0, cpuErr := procCPU(proc.Pid)
	start := time.Now()
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1)) - 1; i < b.N && !b.Failed(); i = int(next.Add(1)) - 1 {
				lat[i] = ask(c, question(i))
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	cpu1, err := procCPU(proc.Pid)
	b.StopTimer()
	if cpuErr == nil && err == nil {
		b.ReportMetric(float64((cpu1-cpu0).Microseconds())/1000/float64(b.N), "server-cpu-ms/call")
	}
	slices.Sort(lat)
	pct := func(p float64) float64 {
		return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Microseconds()) / 1000
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "calls/s")
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
	if kb, err := peakRSS(proc.Pid); err == nil {
		b.ReportMetric(float64(kb)/1024, "server-MB")
	}
	for _, cs := range sessions {
		cs.Close()
	}
}

// procCPU is the user and system CPU time a process has used so far
// (Linux), to the clock tick: on a shared machine a call's CPU says what
// it costs when its wall time says mostly how busy the machine was.
func procCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The fields after the command's closing parenthesis: state is the
	// first, utime and stime the 12th and 13th.
	i := strings.LastIndexByte(string(b), ')')
	f := strings.Fields(string(b[i+1:]))
	if i < 0 || len(f) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: unexpected format", pid)
	}
	var ticks int64
	for _, s := range f[11:13] {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("/proc/%d/stat: %w", pid, err)
		}
		ticks += n
	}
	const hz = 100 // USER_HZ, fixed at 100 on Linux for /proc
	return time.Duration(ticks) * time.Second / hz, nil
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
