package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptwiki/pt/lint"
	"github.com/ptwiki/pt/wiki"
	"github.com/ptwiki/pt/wiki/spacegen"
)

// benchSpace is a generated space of n pages, linted (so pages carry
// findings to look up), in $PT_WEB_BENCH_DIR when set (made once and kept,
// for a whole-process measure with pt serve --web and curl), else in a
// temporary directory.
func benchSpace(b *testing.B, n int) *wiki.Space {
	b.Helper()
	ctx := context.Background()
	dir := filepath.Join(b.TempDir(), "kb")
	if d := os.Getenv("PT_WEB_BENCH_DIR"); d != "" {
		dir = d
	}
	if _, err := os.Stat(filepath.Join(dir, "kb.yaml")); err == nil {
		s, err := wiki.Open(ctx, dir)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { s.Close() })
		return s
	}
	s, err := spacegen.Generate(ctx, dir, spacegen.Options{Pages: n, Seed: 1, BatchSize: 500})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	if _, err := lint.Run(ctx, s, lint.Options{}); err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkPageView renders one page of a 10,000-page space with its
// provenance panel and badges, as a browser asks for it:
//
//	go test ./mcp/web -run '^$' -bench PageView -benchtime 200x
func BenchmarkPageView(b *testing.B) {
	s := benchSpace(b, 10000)
	ctx := context.Background()
	head, err := s.Head(ctx)
	if err != nil {
		b.Fatal(err)
	}
	es, err := s.List(ctx, head, "summaries")
	if err != nil || len(es) == 0 {
		b.Fatalf("no summaries: %v", err)
	}
	site, err := New(s, Options{Addr: DefaultAddr})
	if err != nil {
		b.Fatal(err)
	}
	h, err := site.Handler()
	if err != nil {
		b.Fatal(err)
	}
	get := func(p string) {
		r := httptest.NewRequest("GET", "http://"+DefaultAddr+pageURL(p), nil)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `id="provenance"`) {
			b.Fatalf("%s: %d", p, w.Code)
		}
	}
	get(es[0].Path) // the findings of head are read once, by the first view
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		get(es[i%len(es)].Path)
	}
}
