//go:build evalcorpora

package retrieve_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/ptwiki/pt/retrieve"
	"github.com/ptwiki/pt/wiki"
)

// TestDumpUnseen writes, for each space and question file named in
// PT_UNSEEN (comma-separated NAME=SPACE_DIR=QUESTIONS), one JSON line per
// question to PT_DUMP: the gold, pt's rank and BM25's with sufficiency off
// (PT_DUMP_SUFF=1: on), and the gate's evidence read over the eight best
// pages. Tuning reads the tuning halves only. It asserts nothing.
func TestDumpUnseen(t *testing.T) {
	spec, out := os.Getenv("PT_UNSEEN"), os.Getenv("PT_DUMP")
	if spec == "" || out == "" {
		t.Skip("set PT_UNSEEN and PT_DUMP")
	}
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	enc := json.NewEncoder(f)
	ctx := context.Background()
	variant := os.Getenv("PT_TUNE_VARIANTS")
	if variant == "" {
		variant = "default"
	}
	for _, one := range strings.Split(spec, ",") {
		parts := strings.SplitN(one, "=", 3)
		s, err := wiki.Open(ctx, parts[1])
		if err != nil {
			t.Fatal(err)
		}
		qs := loadQuestions(t, parts[2])
		feats := map[string]map[string]any{}
		e := retrieve.Open(s, retrieve.Options{Ranking: retrieve.TuneRanking(variant, os.Getenv("PT_DUMP_SUFF") == "")})
		retrieve.SetGateHook(e, func(q string, m map[string]any) { feats[q] = m })
		rep, err := e.Eval(ctx, qs, retrieve.EvalOptions{Now: evalWhen})
		e.Close()
		s.Close()
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range rep.Results {
			enc.Encode(map[string]any{"corpus": parts[0], "id": r.ID, "kind": r.Kind, "q": qs[i].Question,
				"gold": r.Gold, "rank": r.Rank, "bm25": r.BM25Rank, "cov": r.Coverage, "suff": r.Sufficient, "top": r.Top, "f": feats[qs[i].Question]})
		}
	}
}

// TestSweepUnseen asks the questions of PT_UNSEEN (as TestDumpUnseen) under
// each ranking variant of PT_TUNE_VARIANTS, sufficiency off (with
// PT_SWEEP_REBUILD, each variant in an index of its own, for variants that
// change what is indexed), and logs hit@5, MRR and multi-hop per set. It
// asserts nothing.
func TestSweepUnseen(t *testing.T) {
	spec := os.Getenv("PT_UNSEEN")
	if spec == "" || os.Getenv("PT_SWEEP") == "" {
		t.Skip("set PT_UNSEEN and PT_SWEEP")
	}
	ctx := context.Background()
	for _, one := range strings.Split(spec, ",") {
		parts := strings.SplitN(one, "=", 3)
		s, err := wiki.Open(ctx, parts[1])
		if err != nil {
			t.Fatal(err)
		}
		qs := loadQuestions(t, parts[2])
		for _, v := range strings.Split(os.Getenv("PT_TUNE_VARIANTS"), ",") {
			opts := retrieve.Options{Ranking: retrieve.TuneRanking(v, true)}
			if os.Getenv("PT_SWEEP_REBUILD") != "" {
				opts.IndexDir = t.TempDir()
			}
			e := retrieve.Open(s, opts)
			var n, h5, rr, mhn, mh float64
			var miss []string
			for _, q := range qs {
				if len(q.Gold) == 0 {
					continue
				}
				res, err := e.Query(ctx, retrieve.Request{Question: q.Question, Now: evalWhen})
				if err != nil {
					t.Fatal(err)
				}
				var ps []string
				for _, h := range res.Results {
					ps = append(ps, h.Path)
				}
				r, all := retrieve.GoldRank(ps, q.Gold, 8)
				n++
				if r >= 1 && r <= 5 {
					h5++
				} else {
					miss = append(miss, q.ID)
				}
				if r > 0 {
					rr += 1 / float64(r)
				}
				if q.Kind == "multi-hop" {
					mhn++
					if all {
						mh++
					}
				}
			}
			e.Close()
			t.Logf("%-10s %-16s h5 %.3f mrr %.3f mh %.3f miss %v", parts[0], v, h5/n, rr/n, mh/max(mhn, 1), miss)
		}
		s.Close()
	}
}
