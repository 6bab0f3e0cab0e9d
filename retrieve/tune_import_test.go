//go:build evalcorpora

package retrieve_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"sort"
	"testing"

	"github.com/ptwiki/pt/retrieve"
	"github.com/ptwiki/pt/wiki"
)

// TestTuneImported sweeps ranking variants (retrieve.TuneVariants()) over the
// imported corpora with PT_TUNE=1. It prints figures with sufficiency off
// (ranking alone) and the coverage of answerable and unanswerable questions;
// it asserts nothing.
func TestTuneImported(t *testing.T) {
	if os.Getenv("PT_TUNE") == "" {
		t.Skip("set PT_TUNE=1")
	}
	type set struct {
		s  *wiki.Space
		qs []retrieve.Question
	}
	var sets []set
	for _, c := range evalCorpora {
		s := importCorpus(t, c)
		sets = append(sets, set{s, append(loadQuestions(t, c.devFile()), loadQuestions(t, c.own)...)})
	}
	var names []string
	for n := range retrieve.TuneVariants() {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		if only := os.Getenv("PT_TUNE_ONLY"); only != "" && only != name {
			continue
		}
		line := name
		for _, st := range sets {
			e := retrieve.Open(st.s, retrieve.Options{Ranking: retrieve.TuneRanking(name, true), IndexDir: t.TempDir()})
			rep, err := e.Eval(context.Background(), st.qs, retrieve.EvalOptions{Now: evalWhen})
			e.Close()
			if err != nil {
				t.Fatal(err)
			}
			var neg, pos []float64
			for _, r := range rep.Results {
				if len(r.Gold) == 0 {
					neg = append(neg, r.Coverage)
				} else {
					pos = append(pos, r.Coverage)
				}
				if os.Getenv("PT_TUNE_V") != "" && len(r.Gold) > 0 && (r.Rank == 0 || r.Rank > 3) {
					t.Logf("  %s rank %d bm25 %d top %v", r.ID, r.Rank, r.BM25Rank, r.Top[:min(4, len(r.Top))])
				}
			}
			slices.Sort(neg)
			slices.Sort(pos)
			t.Logf("%s coverage unanswerable %v answerable %v", name, neg, pos)
			p, b := rep.Systems[0], rep.Systems[1]
			line += fmt.Sprintf(" | h1 %.2f h5 %.2f mrr %.2f mh %.2f tok %d (bm25 h5 %.2f mrr %.2f)", p.HitAt1, p.HitAt5, p.MRR, p.MultiHop, p.MedianTokens, b.HitAt5, b.MRR)
		}
		t.Log(line)
	}
}
