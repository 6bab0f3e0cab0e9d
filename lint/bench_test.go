package lint_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/ptwiki/pt/lint"
	"github.com/ptwiki/pt/wiki/spacegen"
)

// BenchmarkLint lints a generated space of 10,000 pages (sources, their
// summaries pinned to them, linked concept pages, spokes and hub) as a dry
// run: every page read and parsed, every check, the lifecycle merge.
//
//	go test ./lint -run '^$' -bench Lint -benchtime 5x
func BenchmarkLint(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("pages=%d", n), func(b *testing.B) {
			ctx := context.Background()
			s, err := spacegen.Generate(ctx, b.TempDir(), spacegen.Options{Pages: n, Seed: 1})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			b.ResetTimer()
			for b.Loop() {
				rep, err := lint.Run(ctx, s, lint.Options{Now: now, DryRun: true})
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(len(rep.Open())), "findings")
			}
		})
	}
}
