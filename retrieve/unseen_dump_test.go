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
