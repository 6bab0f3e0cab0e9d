package ingest_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/ptwiki/pt/ingest"
	"github.com/ptwiki/pt/wiki"
	"github.com/ptwiki/pt/wiki/spacegen"
)

// corpus returns the path of a shared evaluation corpus, skipping the
// benchmark when it is not on this machine.
func corpus(tb testing.TB, name string) string {
	tb.Helper()
	dir := filepath.Join(spacegen.Corpora(), name)
	if _, err := os.Stat(dir); err != nil {
		tb.Skipf("corpus %s not available: %v", name, err)
	}
	return dir
}

// BenchmarkImport imports a whole corpus into a fresh space per iteration
// and reports pages per second.
func BenchmarkImport(b *testing.B) {
	for _, name := range []string{"gowiki", "k8s-community"} {
		b.Run(name, func(b *testing.B) {
			dir := corpus(b, name)
			ctx := context.Background()
			pages := 0
			for b.Loop() {
				b.StopTimer()
				s, _ := newSpace(b, "")
				b.StartTimer()
				res, err := ingest.Import(ctx, s, dir, ingest.ImportOptions{ApprovedBy: "dana", Author: dana, SitePrefixes: []string{"/wiki/", "https://go.dev/wiki/"}})
				if err != nil {
					b.Fatal(err)
				}
				pages = res.Imported
			}
			b.ReportMetric(float64(pages)*float64(b.N)/b.Elapsed().Seconds(), "pages/s")
		})
	}
}

// BenchmarkIngest ingests one source (with a topic from the taxonomy and
// one related page) into spaces of 1,000 and 10,000 pages.
func BenchmarkIngest(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("pages=%d", n), func(b *testing.B) {
			s := benchSpace(b, n)
			ctx := context.Background()
			i := 0
			for b.Loop() {
				i++
				_, err := ingest.Ingest(ctx, s, ingest.Source{
					Title: fmt.Sprintf("Benchmark standup %d", i), Body: []byte(fmt.Sprintf(standup+"\nRun %d.\n", i)),
					Kind: "meeting-notes", ApprovedBy: "dana", Author: dana, When: t0,
				})
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// benchSpace generates a realistic space of n pages (wiki/spacegen).
func benchSpace(b *testing.B, n int) *wiki.Space {
	b.Helper()
	s, err := spacegen.Generate(context.Background(), b.TempDir(), spacegen.Options{Pages: n, Seed: 7})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}
