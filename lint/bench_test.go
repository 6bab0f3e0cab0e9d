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
// run: every check and the lifecycle merge, with every page read and
// parsed (cold) or with the facts a first run kept (warm).
//
//	go test ./lint -run '^$' -bench Lint -benchtime 5x
func BenchmarkLint(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		ctx := context.Background()
		s, err := spacegen.Generate(ctx, b.TempDir(), spacegen.Options{Pages: n, Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		for _, cold := range []bool{true, false} {
			name := map[bool]string{true: "cold", false: "warm"}[cold]
			b.Run(fmt.Sprintf("pages=%d/%s", n, name), func(b *testing.B) {
				opts := lint.Options{Now: now, DryRun: true}
				if cold {
					opts = lint.WithoutFacts(opts)
				} else if _, err := lint.Run(ctx, s, opts); err != nil {
					b.Fatal(err)
				}
				for b.Loop() {
					rep, err := lint.Run(ctx, s, opts)
					if err != nil {
						b.Fatal(err)
					}
					b.ReportMetric(float64(len(rep.Open())), "findings")
				}
			})
		}
		s.Close()
	}
}

// BenchmarkCurate curates a generated space of 10,000 pages as a dry run
// with no model: cold reads every page (no facts cache), warm reuses the
// facts of a first run.
//
//	go test ./lint -run '^$' -bench Curate -benchtime 3x
func BenchmarkCurate(b *testing.B) {
	ctx := context.Background()
	s, err := spacegen.Generate(ctx, b.TempDir(), spacegen.Options{Pages: 10000, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	for _, cold := range []bool{true, false} {
		name := map[bool]string{true: "cold", false: "warm"}[cold]
		b.Run(name, func(b *testing.B) {
			if !cold {
				if _, err := lint.Curate(ctx, s, lint.CurateOptions{Now: now, DryRun: true}); err != nil {
					b.Fatal(err)
				}
			}
			for b.Loop() {
				rep, err := lint.Curate(ctx, s, lint.CurateOptions{Now: now, DryRun: true, NoCache: cold})
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(len(rep.Open())), "findings")
			}
		})
	}
}
